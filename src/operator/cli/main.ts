import { parseArgs as parseNodeArgs } from 'node:util';
import { describeError, exitCodeOf, UsageError } from '../../core/errors.ts';
import type { Io } from '../../core/io.ts';
import { packageVersion } from '../../core/package-root.ts';
import type { RunFlags } from '../runtime/operator-settings.ts';
import type { DoctorFlags } from './doctor-command.ts';
import type { ImportFlags } from './import-command.ts';

const help = `
  Usage
    $ realmforge synth <file|dir>...   Print the manifests the operator would apply (no cluster needed)
    $ realmforge run                   Run the operator
    $ realmforge doctor                Check a cluster against the troubleshooting guide (reads only)
    $ realmforge import <export.json> --namespace <ns>  Print the IdentityRealm and IdentityClients that say
                                       what a Keycloak realm export says (or --keycloak-url: a live realm)
    $ realmforge plan <file|dir>... --keycloak-url <url>  What applying these IdentityRealms and IdentityClients
                                       would change in that Keycloak (exit 0: nothing, 2: changes)
    $ realmforge dev up|down|logs|status  Try it on this machine: the embedded cluster, the operator and an
                                          example server, realm and client (npm start / npm stop; from a checkout)

  Options of run
    --metrics-port <port>       /metrics, /healthz and /readyz (default 8081)
    --drift-interval <duration> How often realms and clients are compared with Keycloak (default 60s)
    --ready-grace <duration>    How long Ready stays as last verified while Keycloak cannot be reached
                                (default 10m; env REALMFORGE_READY_GRACE)
    --leader-elect              Take part in leader election (a Lease in POD_NAMESPACE); needed with replicas > 1
    --log-level <level>         debug, info, warn or error (default info)
    --concurrency <n>           Resources reconciled at once per kind (default 4)
    --kubeconfig <file>         The kubeconfig to use (default: KUBECONFIG, in-cluster config, ~/.kube/config)
    --context <name>            The kubeconfig context to use (default: its current-context)

  Options of doctor (exit code 1 when a check FAILs)
    --namespace <ns>            Only the IdentityServers, realms and clients of this namespace
    --json                      Print the report as JSON (schemas/operator/doctor-report.schema.json)
    --operator-namespace <ns>   Where the operator is installed (default realmforge-system)
    --operator-url <url>        The operator runs outside the cluster (realmforge dev): its metrics URL
    --kubeconfig <file>         As for run

  Options of import (what the CRDs cannot express is listed on stderr by JSON path)
    --namespace <ns>            The namespace of the IdentityClients (and of the realm, unless --realm-namespace)
    --realm-namespace <ns>      The namespace of the IdentityRealm
    --server <name>             The IdentityServer of the realm (default keycloak); --server-namespace <ns>
    --keycloak-url <url>        Read the realm from this Keycloak (a partial export) instead of a file; with
                                --realm <name> and --credentials <file> or --credentials-secret <ns>/<name>
                                (keys username and password, or client-id and client-secret)
    --realm <name>              The realm to import (needed with --keycloak-url, or a file holding several)
    --secrets                   Also print the Secret manifests the resources refer to (with the export's values)
    --strict                    Fail, printing nothing, when anything cannot be expressed

  Options of plan (the Secrets the resources name are read from the files given; others are not compared)
    --keycloak-url <url>        The Keycloak to compare with; --credentials <file> or --credentials-secret
                                <ns>/<name> as for import; --kubeconfig <file> for the Secret

  Options of dev
    --follow                    dev logs: keep printing the operator's log as it grows

  Environment of run
    KEYCLOAK_API_GLOBAL_RATE_LIMIT_TPS / _BURST      Keycloak admin calls per second, all namespaces (50 / 100)
    KEYCLOAK_API_NAMESPACE_RATE_LIMIT_TPS / _BURST   Keycloak admin calls per second per namespace (5 / 10)
    REALMFORGE_ENDPOINT_MAP     Outside a cluster: a file or JSON mapping <svc>.<ns>.svc:<port> to local URLs

  Options
    --help      Show this help
    --version   Show the version

  Examples
    $ realmforge synth examples/identityserver-full.yaml
    $ realmforge synth examples/ > manifests.yaml
    $ realmforge doctor --namespace team-a
`;

// node:util's parseArgs rather than a CLI library: `realmforge run` is long-lived and a library's memory would stay
// for the few flags it has.
const options = {
  'metrics-port': { type: 'string' },
  'drift-interval': { type: 'string' },
  'ready-grace': { type: 'string' },
  'leader-elect': { type: 'boolean' },
  'log-level': { type: 'string' },
  concurrency: { type: 'string' },
  kubeconfig: { type: 'string' },
  namespace: { type: 'string' },
  json: { type: 'boolean' },
  'operator-namespace': { type: 'string' },
  'operator-url': { type: 'string' },
  follow: { type: 'boolean' },
  'realm-namespace': { type: 'string' },
  server: { type: 'string' },
  'server-namespace': { type: 'string' },
  realm: { type: 'string' },
  'keycloak-url': { type: 'string' },
  credentials: { type: 'string' },
  'credentials-secret': { type: 'string' },
  secrets: { type: 'boolean' },
  strict: { type: 'boolean' },
  context: { type: 'string' },
  help: { type: 'boolean' },
  version: { type: 'boolean' },
} as const;

const numeric = new Set(['metrics-port', 'concurrency']);
const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** The parsed command line: positional words and the flags, camelCased (numbers for the numeric ones). */
type Cli = {
  input: string[];
  flags: RunFlags & DoctorFlags & ImportFlags & { follow?: boolean; help?: boolean; version?: boolean };
};

/** `--flag=true` and `--flag=false` for a boolean flag (as the chart and manifests write `--leader-elect=...`, and
 * as Go operators take them) become `--flag` and `--no-flag`; any other value is refused naming the flag. */
function booleanValues(argv: readonly string[]): string[] {
  return argv.map((arg) => {
    const m = /^--([a-z][a-z-]*)=(.*)$/s.exec(arg);
    const name = m?.[1] ?? '';
    if (!m || options[name as keyof typeof options]?.type !== 'boolean') return arg;
    if (m[2] === 'true') return `--${name}`;
    if (m[2] === 'false') return `--no-${name}`;
    throw new Error(`--${name} takes true or false, not "${m[2]}"`);
  });
}

function parseArgs(argv: string[]): Cli {
  const parse = () =>
    parseNodeArgs({
      args: booleanValues(argv),
      options,
      allowPositionals: true,
      allowNegative: true,
      strict: true,
      tokens: true,
    });
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (error) {
    const unknown = /Unknown option '([^']+)'/.exec((error as Error).message)?.[1];
    throw unknown ? new Error(`unknown flag ${unknown}`) : error;
  }
  const { values, positionals, tokens } = parsed;
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    if (seen.has(token.name)) throw new Error(`the flag --${token.name} can only be set once`);
    seen.add(token.name);
  }
  const flags: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(values))
    if (value !== undefined) flags[camel(name)] = numeric.has(name) ? Number(value) : value;
  return { input: positionals, flags: flags as Cli['flags'] };
}

/** The flags each command honours: any other flag given to it is refused, never ignored. */
const commandFlags: Record<string, readonly string[]> = {
  synth: [],
  run: [
    'metrics-port',
    'drift-interval',
    'ready-grace',
    'leader-elect',
    'log-level',
    'concurrency',
    'kubeconfig',
  ],
  doctor: ['namespace', 'json', 'operator-namespace', 'operator-url', 'kubeconfig'],
  dev: ['follow'],
  import: [
    'namespace',
    'realm-namespace',
    'server',
    'server-namespace',
    'realm',
    'keycloak-url',
    'credentials',
    'credentials-secret',
    'kubeconfig',
    'secrets',
    'strict',
  ],
  plan: ['keycloak-url', 'credentials', 'credentials-secret', 'kubeconfig'],
};

function refuseForeignFlags(command: string, argv: readonly string[]): void {
  const allowed = commandFlags[command];
  if (!allowed) return;
  for (const arg of argv) {
    if (arg === '--') break;
    const flag = /^--(?:no-)?([a-z][a-z-]*)/.exec(arg)?.[1];
    if (flag && flag !== 'help' && flag !== 'version' && !allowed.includes(flag))
      throw new UsageError(`realmforge ${command} does not take --${flag}: see realmforge --help`);
  }
}

/** The realmforge command line: parses argv, runs one command, maps errors to an exit code. */
export async function main(argv: string[], io: Io = process): Promise<number> {
  let cli: Cli;
  try {
    cli = parseArgs(argv);
  } catch (error) {
    // parseArgs's own errors (an unknown, repeated or mistyped flag) are usage errors, never a stack trace.
    io.stderr.write(`realmforge: ${(error as Error).message}: see realmforge --help\n`);
    return 2;
  }
  if (cli.flags.help) {
    io.stdout.write(`${help.replace(/^\n/, '')}\n`);
    return 0;
  }
  if (cli.flags.version) {
    io.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  const [command, ...args] = cli.input;
  try {
    refuseForeignFlags(command ?? '', argv);
    if (command === 'synth') {
      const { runSynth } = await import('./synth-command.ts');
      return runSynth(args, io);
    }
    if (command === 'run') {
      if (args.length > 0) throw new UsageError(`realmforge run takes no arguments, got "${args.join(' ')}"`);
      const { runOperator } = await import('./run-command.ts');
      return await runOperator(io, cli.flags);
    }
    if (command === 'doctor') {
      if (args.length > 0)
        throw new UsageError(`realmforge doctor takes no arguments, got "${args.join(' ')}"`);
      const { runDoctor } = await import('./doctor-command.ts');
      return await runDoctor(io, cli.flags);
    }
    if (command === 'import') {
      const { runImport } = await import('./import-command.ts');
      return await runImport(args, io, cli.flags);
    }
    if (command === 'plan') {
      const { runPlan } = await import('./plan-command.ts');
      return await runPlan(args, io, cli.flags);
    }
    if (command === 'dev') {
      const { runDev } = await import('./dev-command.ts');
      return await runDev(args, io, cli.flags);
    }
    throw new UsageError(
      command
        ? `unknown command "${command}": see realmforge --help`
        : 'no command given: see realmforge --help',
    );
  } catch (error) {
    io.stderr.write(`realmforge: ${describeError(error)}\n`);
    return exitCodeOf(error);
  }
}

if (import.meta.main) process.exitCode = await main(process.argv.slice(2));
