import { UsageError } from '../../core/errors.ts';
import type { FlagSpec, GlobalOptions } from '../command.ts';

/** Flags every command accepts; help lists them once under "Global flags". */
export const globalFlags: Record<string, FlagSpec> = {
  json: {
    type: 'boolean',
    description:
      'Print machine output: {"version":"v2","data":...,"meta":...}; --json id,title keeps only those fields of each item',
  },
  jq: {
    type: 'string',
    value: 'EXPR',
    description: 'Filter the --json output with a jq expression (strings printed raw), e.g. --jq .data.id',
  },
  dryRun: { type: 'boolean', description: 'Show the plan of a change without making it' },
  // On unless turned off: help, completions and the skill write them --no-color and --no-pager.
  color: { type: 'boolean', default: true, description: 'No colour even on a terminal (also NO_COLOR)' },
  pager: {
    type: 'boolean',
    default: true,
    description: 'Never page long output through BBDC_PAGER or PAGER',
  },
  repo: { type: 'string', shortFlag: 'R', value: '[HOST/]PROJECT/slug', description: 'Repository to act on' },
  host: { type: 'string', value: 'URL', description: 'Bitbucket server (a bare host gets https://)' },
  caFile: { type: 'string', value: 'PATH', description: 'PEM bundle of CAs to trust for TLS' },
  insecureSkipVerify: { type: 'boolean', description: 'Do not verify TLS certificates (unsafe)' },
  requestTimeout: {
    type: 'string',
    value: 'DURATION',
    description: 'Timeout per request, e.g. 30s (default 30s)',
  },
  retryCount: {
    type: 'string',
    value: 'N',
    description: 'Retries for 429, 5xx and connection errors (default 3)',
  },
  retryBackoff: {
    type: 'string',
    value: 'DURATION',
    description: 'First retry wait, doubling (default 500ms)',
  },
  logLevel: {
    type: 'string',
    value: 'LEVEL',
    choices: ['error', 'warn', 'info', 'debug'],
    description: 'Log to stderr',
  },
  logFormat: {
    type: 'string',
    value: 'FORMAT',
    choices: ['text', 'json'],
    description: 'Log lines as text (default) or json',
  },
  help: { type: 'boolean', shortFlag: 'h', description: 'Show help' },
  version: { type: 'boolean', description: 'Print the version' },
};

/** Global flags that take a value, as written on the command line; used to find the command words. */
export const valueFlagTokens = new Set([
  '--jq',
  '-R',
  '--repo',
  '--host',
  '--ca-file',
  '--request-timeout',
  '--retry-count',
  '--retry-backoff',
  '--log-level',
  '--log-format',
]);

/** Parses `500ms`, `30s`, `2m` or a bare number of seconds into milliseconds. */
export function parseDuration(value: string, flag: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(value.trim());
  if (!m) throw new UsageError(`${flag} "${value}" is not a duration; use e.g. 500ms, 30s or 2m`);
  const n = Number(m[1]);
  return Math.round(m[2] === 'ms' ? n : m[2] === 'm' ? n * 60_000 : n * 1000);
}

function parseCount(value: string, flag: string): number {
  if (!/^\d+$/.test(value.trim())) throw new UsageError(`${flag} "${value}" must be a whole number, e.g. 3`);
  return Number(value);
}

function truthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** Applies precedence flags > BBDC_* environment > defaults to the global flags. */
export function resolveGlobals(
  flags: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>>,
): GlobalOptions {
  const pick = (flag: string, envName: string) => (flags[flag] as string | undefined) ?? env[envName];
  const timeout = pick('requestTimeout', 'BBDC_REQUEST_TIMEOUT');
  const retries = pick('retryCount', 'BBDC_RETRY_COUNT');
  const backoff = pick('retryBackoff', 'BBDC_RETRY_BACKOFF');
  const logLevel = pick('logLevel', 'BBDC_LOG_LEVEL') ?? 'warn';
  const logFormat = pick('logFormat', 'BBDC_LOG_FORMAT') ?? 'text';
  if (!['error', 'warn', 'info', 'debug'].includes(logLevel)) {
    throw new UsageError(`--log-level "${logLevel}" must be one of error, warn, info, debug`);
  }
  if (!['text', 'json'].includes(logFormat))
    throw new UsageError(`--log-format "${logFormat}" must be text or json`);
  return {
    json: flags.json === true || flags.jq !== undefined,
    ...(flags.jq !== undefined && { jq: flags.jq as string }),
    dryRun: flags.dryRun === true,
    pager: flags.pager !== false,
    // --no-color wins; then FORCE_COLOR (as Node itself orders them); then a non-empty NO_COLOR.
    color: flags.color !== false && (truthy(env.FORCE_COLOR) || !env.NO_COLOR),
    forceColor: flags.color !== false && truthy(env.FORCE_COLOR),
    caFile: pick('caFile', 'BBDC_CA_FILE'),
    insecureSkipVerify: flags.insecureSkipVerify === true || truthy(env.BBDC_INSECURE_SKIP_VERIFY),
    requestTimeoutMs: timeout ? parseDuration(timeout, '--request-timeout') : 30_000,
    retryCount: retries ? parseCount(retries, '--retry-count') : 3,
    retryBackoffMs: backoff ? parseDuration(backoff, '--retry-backoff') : 500,
    retryExplicit: retries !== undefined || backoff !== undefined,
    logLevel: logLevel as GlobalOptions['logLevel'],
    logFormat: logFormat as GlobalOptions['logFormat'],
    repo: flags.repo as string | undefined,
    host: flags.host as string | undefined,
  };
}
