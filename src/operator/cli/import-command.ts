// `realmforge import`: wiring only. Reads a realm export (a file, or a live Keycloak's partial export), runs the
// pure importer (compile/import/), checks the result against the CRD schemas and prints it. Nothing reaches
// stdout unless the whole import succeeded (and, with --strict, left nothing out).
import { readFileSync } from 'node:fs';
import { fetch as undiciFetch } from 'undici';
import { parse as parseYaml } from 'yaml';
import { UsageError, ValidationError } from '../../core/errors.ts';
import type { Io } from '../../core/io.ts';
import { importReport, importYaml } from '../compile/import/import-output.ts';
import { type ImportResult, importRealm } from '../compile/import/import-realm.ts';
import { loadCrdSchemas } from '../crd-schemas.ts';
import { createAdminClient } from '../keycloak/admin-client.ts';
import type { AdminIdentity } from '../keycloak/admin-identity.ts';
import { createRateLimiter } from '../keycloak/rate-limits.ts';
import { readRealmExport } from '../keycloak/realm-export.ts';
import { createResourceValidator } from '../resource-validator.ts';
import { systemClock } from '../runtime/clock.ts';
import { loadKubeAccess } from '../runtime/kube-config.ts';
import { kubeResources } from '../runtime/kube-resources.ts';
import { restKubeClient } from '../runtime/kube-rest-client.ts';
import { kubeTransport } from '../runtime/kube-transport.ts';
import { secretValue } from '../runtime/read-secret.ts';

export type ImportFlags = {
  namespace?: string;
  realmNamespace?: string;
  server?: string;
  serverNamespace?: string;
  realm?: string;
  keycloakUrl?: string;
  credentials?: string;
  credentialsSecret?: string;
  kubeconfig?: string;
  secrets?: boolean;
  strict?: boolean;
};

const namePattern = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function checkFlags(args: string[], flags: ImportFlags): void {
  if (!flags.namespace)
    throw new UsageError('import needs --namespace: the namespace of the IdentityClients');
  for (const [flag, value] of [
    ['--namespace', flags.namespace],
    ['--realm-namespace', flags.realmNamespace],
    ['--server-namespace', flags.serverNamespace],
    ['--server', flags.server],
  ] as const)
    if (value !== undefined && !namePattern.test(value))
      throw new UsageError(
        `${flag} "${value}" is not a Kubernetes name (lower-case letters, digits and '-')`,
      );
  const live = flags.keycloakUrl !== undefined;
  if (live === (args.length === 1) || args.length > 1)
    throw new UsageError(
      'import reads one realm export: realmforge import <export.json> or realmforge import --keycloak-url <url> --realm <name>',
    );
  if (live && !flags.realm) throw new UsageError('--keycloak-url needs --realm: the realm to import');
  if (live && !flags.credentials === !flags.credentialsSecret)
    throw new UsageError(
      '--keycloak-url needs the admin credentials: --credentials <file> or --credentials-secret <namespace>/<name>',
    );
  if (!live && (flags.credentials || flags.credentialsSecret))
    throw new UsageError('--credentials and --credentials-secret go with --keycloak-url');
}

/** Imports, validates and prints; resolves with the exit code. */
export async function runImport(args: string[], io: Io, flags: ImportFlags): Promise<number> {
  checkFlags(args, flags);
  const [file] = args;
  const source = file ?? `${flags.keycloakUrl} realm ${flags.realm}`;
  const input = file ? readExportFile(file) : await readLive(flags);
  const result = importRealm(input, {
    namespace: flags.namespace as string,
    realmNamespace: flags.realmNamespace,
    server: { name: flags.server ?? 'keycloak', namespace: flags.serverNamespace },
    source,
    realm: flags.realm,
  });
  validate(result, source);
  io.stderr.write(importReport(result, Boolean(flags.secrets)));
  if (flags.strict && result.unexpressed.length)
    throw new ValidationError(
      `${source}: --strict: ${result.unexpressed.length} item(s) above cannot be expressed by the CRDs; nothing printed`,
    );
  io.stdout.write(importYaml(result, Boolean(flags.secrets)));
  return 0;
}

function readExportFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ValidationError(
      `${file}: not JSON (${(error as Error).message}): a realm export is the JSON file kc.sh export or the admin console's partial export writes`,
    );
  }
}

/** The output must be what the API server accepts: a failure here is the importer's bug, named as such. */
function validate(result: ImportResult, source: string): void {
  const check = createResourceValidator(loadCrdSchemas());
  for (const resource of [result.realm, ...result.clients]) {
    try {
      check(structuredClone(resource), `the import of ${source}`);
    } catch (error) {
      throw new ValidationError(
        `${(error as Error).message} (a realmforge bug: please report it with the export's shape)`,
        {
          details: (error as ValidationError).details,
        },
      );
    }
  }
}

async function readLive(flags: ImportFlags): Promise<unknown> {
  const identity = flags.credentials
    ? credentialsOf(parseYaml(readCredentials(flags.credentials)), `--credentials ${flags.credentials}`)
    : await secretCredentials(flags);
  const limiter = createRateLimiter(
    { global: { tps: 20, burst: 20 }, namespace: { tps: 20, burst: 20 } },
    { waited: () => {}, queued: () => {} },
  );
  try {
    const admin = createAdminClient((flags.keycloakUrl as string).replace(/\/+$/, ''), identity, {
      http: (url, init) => undiciFetch(url, init),
      limiter,
      clock: {
        ...systemClock,
        setTimer: (ms: number, fn: () => void) => systemClock.setTimer(ms, fn, { keepAlive: true }),
      },
      random: Math.random,
      count: () => {},
      canWrite: () => true,
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    });
    return await readRealmExport(admin, flags.realm as string);
  } finally {
    await limiter.stop();
  }
}

function readCredentials(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read --credentials ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

/** username and password, or client-id and client-secret (the keys of the operator's admin Secrets). */
function credentialsOf(data: unknown, where: string): AdminIdentity {
  const d = (data ?? {}) as Record<string, unknown>;
  if (typeof d.username === 'string' && typeof d.password === 'string')
    return { username: d.username, password: d.password };
  if (typeof d['client-id'] === 'string' && typeof d['client-secret'] === 'string')
    return { clientId: d['client-id'], clientSecret: d['client-secret'] } as AdminIdentity;
  throw new UsageError(`${where}: needs keys username and password (or client-id and client-secret)`);
}

async function secretCredentials(flags: ImportFlags): Promise<AdminIdentity> {
  const [namespace, name, extra] = (flags.credentialsSecret as string).split('/');
  if (!namespace || !name || extra !== undefined)
    throw new UsageError(`--credentials-secret "${flags.credentialsSecret}": expected <namespace>/<name>`);
  const access = loadKubeAccess(
    { kubeconfig: flags.kubeconfig, env: process.env },
    (f) => readFileSync(f, 'utf8'),
    systemClock,
  );
  const transport = kubeTransport(access, { timeoutMs: 15_000, clock: systemClock });
  try {
    const kube = restKubeClient(transport, kubeResources(transport, systemClock), systemClock);
    const secret = await kube.get({ apiVersion: 'v1', kind: 'Secret', namespace, name });
    if (!secret) throw new UsageError(`--credentials-secret: Secret ${namespace}/${name} not found`);
    const data = Object.fromEntries(
      ['username', 'password', 'client-id', 'client-secret'].map((k) => [k, secretValue(secret, k)]),
    );
    return credentialsOf(data, `Secret ${namespace}/${name}`);
  } finally {
    await transport.close();
  }
}
