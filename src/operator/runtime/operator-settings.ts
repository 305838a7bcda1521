// The settings `realmforge run` starts with, from its flags and environment. Every value is checked before
// anything starts: a bad one stops the operator with a message naming the flag or variable and what it accepts.
import { hostname } from 'node:os';
import { UsageError } from '../../core/errors.ts';

/** A rate limit: sustained calls per second and the burst allowed on top. */
export type RateLimit = { readonly tps: number; readonly burst: number };

/** Everything `realmforge run` is configured with. */
export type RunSettings = {
  readonly metricsPort: number;
  readonly driftIntervalMs: number;
  /** How long a resync that found no change trusts it before reading everything again (--full-resync-period,
   * REALMFORGE_FULL_RESYNC_PERIOD; default 40 drift intervals). */
  readonly fullResyncPeriodMs: number;
  /** How long a verified Ready is held while Keycloak cannot be reached (--ready-grace, REALMFORGE_READY_GRACE). */
  readonly readyGraceMs: number;
  readonly leaderElect: boolean;
  readonly leaseNamespace: string;
  readonly leaseName: string;
  readonly identity: string;
  readonly logLevel: 'debug' | 'info' | 'warn' | 'error';
  readonly concurrency: number;
  readonly globalLimit: RateLimit;
  readonly namespaceLimit: RateLimit;
};

/** The flags `realmforge run` accepts, as the command line parses them (cli/main.ts). */
export type RunFlags = {
  metricsPort?: number;
  driftInterval?: string;
  fullResyncPeriod?: string;
  readyGrace?: string;
  leaderElect?: boolean;
  logLevel?: string;
  concurrency?: number;
  kubeconfig?: string;
  context?: string;
};

function positive(
  name: string,
  raw: string | number | undefined,
  fallback: number,
  integer: boolean,
): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new UsageError(`${name} must be a positive ${integer ? 'integer' : 'number'}, got "${raw}"`);
  }
  return value;
}

/** A duration such as 60s, 5m, 1h or 90 (seconds), in milliseconds. */
export function parseDuration(name: string, raw: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(raw.trim());
  const factor = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match?.[2] ?? 's'] ?? 1000;
  const ms = match ? Number(match[1]) * factor : Number.NaN;
  if (!(ms >= 1000))
    throw new UsageError(`${name} must be a duration of at least 1s such as 60s or 5m, got "${raw}"`);
  return ms;
}

/** The default full-resync period in drift intervals: the production example's 16 section reads spread over 40
 * intervals keep a resync at 1.4 Keycloak reads per realm per interval (docs/benchmarks.md, Tenants). */
export const fullResyncIntervals = 40;

/** Reads and checks the settings; throws a UsageError for the first bad value. */
export function runSettings(flags: RunFlags, env: NodeJS.ProcessEnv): RunSettings {
  const logLevel = flags.logLevel ?? 'info';
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) {
    throw new UsageError(`--log-level must be one of debug, info, warn, error, got "${logLevel}"`);
  }
  const port = flags.metricsPort ?? 8081;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--metrics-port must be a port number (0-65535), got "${port}"`);
  }
  const limit = (scope: 'GLOBAL' | 'NAMESPACE', tps: number, burst: number): RateLimit => {
    const name = `KEYCLOAK_API_${scope}_RATE_LIMIT`;
    const t = positive(`${name}_TPS`, env[`${name}_TPS`], tps, false);
    return {
      tps: t,
      burst: positive(`${name}_BURST`, env[`${name}_BURST`], Math.max(burst, Math.ceil(t)), true),
    };
  };
  const driftIntervalMs = parseDuration('--drift-interval', flags.driftInterval ?? '60s');
  const fullResync = flags.fullResyncPeriod
    ? parseDuration('--full-resync-period', flags.fullResyncPeriod)
    : env.REALMFORGE_FULL_RESYNC_PERIOD
      ? parseDuration('REALMFORGE_FULL_RESYNC_PERIOD', env.REALMFORGE_FULL_RESYNC_PERIOD)
      : fullResyncIntervals * driftIntervalMs;
  return {
    metricsPort: port,
    driftIntervalMs,
    fullResyncPeriodMs: fullResync,
    readyGraceMs: flags.readyGrace
      ? parseDuration('--ready-grace', flags.readyGrace)
      : parseDuration('REALMFORGE_READY_GRACE', env.REALMFORGE_READY_GRACE || '10m'),
    leaderElect: flags.leaderElect ?? false,
    leaseNamespace: env.POD_NAMESPACE || 'realmforge-system',
    leaseName: 'realmforge-operator',
    identity: env.POD_NAME || `${hostname()}-${process.pid}`,
    logLevel: logLevel as RunSettings['logLevel'],
    concurrency: positive('--concurrency', flags.concurrency, 4, true),
    globalLimit: limit('GLOBAL', 50, 100),
    namespaceLimit: limit('NAMESPACE', 5, 10),
  };
}
