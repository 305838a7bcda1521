import type { BbdcConfig, BbdcHost } from '../../generated/types/cli/config.ts';
import type { Plan } from '../../generated/types/cli/plan.ts';
import type { BitbucketClient, Credentials } from './api/client.ts';
import type { NeededPermission, PermissionTarget } from './api/permission-check.ts';
import type { SecretStore } from './config/secret-store.ts';
import type { Deps } from './deps.ts';
import type { LogFormat, Logger, LogLevel } from './output/logger.ts';
import type { Ui } from './output/ui.ts';

/** A flag as cli/parse-flags.ts parses it, plus the text help shows. */
export type FlagSpec = {
  type: 'string' | 'boolean' | 'number';
  shortFlag?: string;
  description: string;
  /** Placeholder for the value in help, e.g. `KEY`. */
  value?: string;
  choices?: string[];
  default?: string | boolean | number;
  isMultiple?: boolean;
  /** The value is a secret: given on the command line (argv, seen by ps and shell history) it is warned about,
   * with this advice on keeping it out of argv. */
  secret?: string;
};

/** A positional argument; the last one may be `variadic` (it takes every remaining word). */
export type ArgSpec = { name: string; required: boolean; description: string; variadic?: boolean };

/** How help, docs and errors write an argument: `<name>`, `[name]`, with `...` when it takes many. */
export function argUsage(a: ArgSpec): string {
  const dots = a.variadic ? '...' : '';
  return a.required ? `<${a.name}>${dots}` : `[${a.name}]${dots}`;
}

/** The global flags every command accepts, after parsing and precedence. */
export type GlobalOptions = {
  json: boolean;
  /** gh's `--json a,b`: only these fields of each item (or of the data). */
  jsonFields?: string[];
  /** --jq: a jq filter the --json document goes through; implies json. */
  jq?: string;
  dryRun: boolean;
  /** Colour allowed: not --no-color, and NO_COLOR unset or empty (https://no-color.org), or FORCE_COLOR. */
  color: boolean;
  /** False with --no-pager: human output is never sent through a pager. */
  pager: boolean;
  /** FORCE_COLOR set (and not 0/false): colour even when stdout is not a terminal. */
  forceColor: boolean;
  caFile?: string;
  insecureSkipVerify: boolean;
  requestTimeoutMs: number;
  retryCount: number;
  retryBackoffMs: number;
  /** Whether --retry-count/--retry-backoff (or BBDC_RETRY_*) were given: then they are honoured in full. */
  retryExplicit: boolean;
  logLevel: LogLevel;
  logFormat: LogFormat;
  repo?: string;
  host?: string;
};

/** What was chosen as the server for this run and why. */
export type ResolvedHost = {
  url: string;
  source: 'flag' | 'env' | 'git' | 'config';
  stored?: BbdcHost;
  credentials?: Credentials;
  /** `env` when BBDC_TOKEN/BBDC_PASSWORD were used, else where the stored secret lives. */
  credentialSource?: 'env' | 'keyring' | 'file';
};

/** The repository a command acts on. */
export type RepoContext = {
  host: ResolvedHost;
  project: string;
  slug: string;
  source: 'flag' | 'env' | 'git';
};

/** What a command's run and plan functions get: the injected Deps plus lazily resolved context. */
export interface CommandDeps extends Deps {
  globals: GlobalOptions;
  logger: Logger;
  ui: Ui;
  configPath: string;
  secretsPath: string;
  config(): BbdcConfig;
  saveConfig(config: BbdcConfig): void;
  secrets(): Promise<SecretStore>;
  /** The host from flags, env, git, then config; throws a UsageError when none can be found. */
  host(): Promise<ResolvedHost>;
  repo(): Promise<RepoContext>;
  /** Credentials and stored entry for a known URL, as if it had come from the config. */
  resolveHost(url: string): Promise<ResolvedHost>;
  /** A client for the resolved host (or the given one) with its stored or env credentials. */
  client(host?: ResolvedHost): Promise<BitbucketClient>;
  /** A client for any URL with explicit credentials, e.g. to check them before login stores them. */
  clientFor(url: string, credentials: Credentials | undefined): Promise<BitbucketClient>;
}

/** Parsed command line handed to a command's parse function; `passthrough` is what followed `--`. */
export type ParsedInput = { args: string[]; flags: Record<string, unknown>; passthrough?: string[] };

/** One command: everything the CLI, help, docs, the MCP server and completions need. */
export interface CommandDefinition<O = unknown, D = unknown> {
  /** Words after `bbdc`, e.g. `auth login`. */
  name: string;
  summary: string;
  description?: string;
  args: ArgSpec[];
  flags: Record<string, FlagSpec>;
  /** What arguments after `--` are handed to (e.g. `git clone flags`); commands without it take none. */
  passthrough?: string;
  /** File name under schemas/cli/output/ without `.schema.json`. */
  outputSchema: string;
  /** `safe` commands only read; `mutating` ones change the server or the local configuration. */
  effect: 'safe' | 'mutating';
  examples?: string[];
  /** Flags and arguments to options; throws a UsageError naming the bad flag. */
  parse(input: ParsedInput): O;
  run(options: O, deps: CommandDeps): Promise<D>;
  /**
   * The permission the server checks for this command's write, declared once: a dry-run asks the server whether
   * the caller holds it on the target (the repository from -R/git unless `target` says otherwise; undefined skips
   * the check, e.g. when the target does not exist) before planning, and exits 3 naming it when not.
   */
  needs?: {
    permission: NeededPermission;
    action: string;
    target?(options: O, deps: CommandDeps): Promise<PermissionTarget | undefined>;
  };
  /** Builds a dry-run plan from read-only calls; a mutating command without it refuses --dry-run. */
  plan?(options: O, deps: CommandDeps): Promise<Plan>;
  /** Writes the human form of the data to stdout. */
  human(data: D, ui: Ui): void;
  /**
   * True when `human` prints a streamed list (output/stream-human.ts) correctly a window of items at a time: it
   * prints nothing per call but the table and notices that depend on an empty list or on the final count. Such a
   * list is then printed as its pages arrive instead of being collected first.
   */
  humanStreams?: boolean;
  /** The exit code for a successful run's data, when it is not always 0 (e.g. `pr checks`: 1 failed, 8 pending). */
  exitCode?(data: D): number;
}

/** Declares a command with its option and data types inferred. */
export function defineCommand<O, D>(definition: CommandDefinition<O, D>): CommandDefinition<O, D> {
  return definition;
}
