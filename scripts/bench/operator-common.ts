// What the operator benches share: running the operator as its image does, reading its RSS, phases and counters,
// the machine's load, and a small work pool.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { operatorProcessEnv } from '../../src/operator/compile/operator-deployment.ts';
import type { TestEnv } from '../testenv/harness.ts';
import { type OperatorProcess, startOperator } from '../testenv/operator-process.ts';

export const root = join(import.meta.dirname, '..', '..');
export const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The process's peak RSS so far (VmHWM), in MB. */
export function peakRssMb(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

/** The process's CPU time so far (user + system), in seconds. */
export function cpuSeconds(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 per second)
}

/** CPU seconds (user + system) of the live processes of process group `pgid`: a Keycloak the process kubelet
 * started is one group (kc.sh and its java). Load-independent where wall times are not: what each side of a bench
 * cost Keycloak, whatever else the machine ran meanwhile. */
export function groupCpuSeconds(pgid: number): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks / 100; // clock ticks, 100 per second
}

export async function listPhases(env: TestEnv, plural: string, namespace?: string): Promise<string[]> {
  const path = namespace
    ? `/apis/realmforge.dev/v1/namespaces/${namespace}/${plural}`
    : `/apis/realmforge.dev/v1/${plural}`;
  const res = await env.request('GET', path);
  return (res.body.items as { status?: { phase?: string } }[]).map((o) => o.status?.phase ?? '');
}

// The operator as its image runs it: the bundle (dist/operator/realmforge.mjs, no type stripping) with the
// Deployment's process environment (V8 flags, malloc arenas). BENCH_NODE_OPTIONS replaces the flags
// (BENCH_NODE_OPTIONS= runs without any), BENCH_OPERATOR_ENV adds or replaces variables ("MALLOC_ARENA_MAX=8") and
// BENCH_OPERATOR_BUILD=tsc runs the unbundled tsc output instead, to measure what each is worth.
export const nodeOptions = () => process.env.BENCH_NODE_OPTIONS ?? operatorProcessEnv.NODE_OPTIONS ?? '';
const extraEnv = (): Record<string, string> =>
  Object.fromEntries(
    (process.env.BENCH_OPERATOR_ENV ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
const unbundled = () => process.env.BENCH_OPERATOR_BUILD === 'tsc';
export const runAs = () =>
  `node ${unbundled() ? 'dist/src/operator/cli/main.js (tsc, unbundled)' : 'dist/operator/realmforge.mjs (bundle)'} with ${Object.entries(
    processEnv(),
  )
    .map(([k, v]) => `${k}="${v}"`)
    .join(' ')}`;
/** The operator's process environment as the bench runs it. */
export const processEnv = (): Record<string, string> => ({
  ...operatorProcessEnv,
  NODE_OPTIONS: nodeOptions(),
  ...extraEnv(),
});
export const bundleEntry = join(root, 'dist', 'operator', 'realmforge.mjs');
export const tscEntry = join(root, 'dist', 'src', 'operator', 'cli', 'main.js');
let built = false;
export function asTheImageRuns(): { env: Record<string, string>; entry: string } {
  if (!built) {
    log('building dist/ (the JavaScript the image runs)');
    execFileSync(process.execPath, [join(root, 'scripts', 'build.ts')], { cwd: root, stdio: 'ignore' });
    built = true;
  }
  return { env: processEnv(), entry: unbundled() ? tscEntry : bundleEntry };
}

/** Peak RSS of the operator started from `entry` with nothing to reconcile yet (its load cost), after `ms`. */
export async function idleRss(env: TestEnv, entry: string, ms = 8000): Promise<number> {
  const op = await startOperator(env, { env: asTheImageRuns().env, entry });
  await new Promise((r) => setTimeout(r, ms));
  const rss = peakRssMb(op.proc.pid);
  await op.stop();
  return rss;
}

/** The machine's load averages (1, 5, 15 min): other work on the machine moves every timing. */
export const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

export const kubeWrites = async (op: OperatorProcess) => {
  let total = 0;
  for (const verb of ['apply', 'apply-status', 'delete', 'event'])
    total += await op.counter('realmforge_kube_requests_total', { verb });
  return total;
};

/** Admin calls the operator made (token requests left out of the writes). */
export const adminCalls = async (op: OperatorProcess, method?: string) =>
  (await op.counter('realmforge_keycloak_api_requests_total', method ? { method } : {})) -
  (method === 'GET' ? 0 : await op.counter('realmforge_keycloak_api_token_requests_total'));

/** Runs `work` on every item, `size` at a time. */
export async function pool<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: size }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}
