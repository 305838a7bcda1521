// Side by side in one run: the operator restarted under each memory setting over the same resources, each doing
// the same work (the first resync of every realm and client after a start), one variable at a time against the
// Deployment's settings. Prints peak RSS, CPU seconds and time to resync everything, so a setting's memory gain
// is shown next to its CPU cost. The baseline runs first and last: the difference between the two is the noise.
import type { TestEnv } from '../testenv/harness.ts';
import { eventually } from '../testenv/harness.ts';
import { startOperator } from '../testenv/operator-process.ts';
import { cpuSeconds, peakRssMb, processEnv, seconds } from './operator-common.ts';

type Variant = { name: string; env: Record<string, string> };

/** The settings measured: the Deployment's, the one before them, each of its settings taken back on its own, and
 * two more (one arena; a libuv pool of one). */
export function memoryVariants(base: Record<string, string>): Variant[] {
  const options = base.NODE_OPTIONS ?? '';
  const flag = (name: string, value?: string) =>
    [
      ...options.split(' ').filter((f) => f && !f.startsWith(`${name}=`)),
      ...(value ? [`${name}=${value}`] : []),
    ].join(' ');
  const { MALLOC_ARENA_MAX: _, ...noArenaCap } = base;
  const baseline = { name: 'the Deployment', env: base };
  return [
    baseline,
    {
      name: 'before (semi 4, pool 4, no cap)',
      env: {
        ...noArenaCap,
        NODE_OPTIONS: flag('--max-semi-space-size', '4').replace(/ ?--v8-pool-size=\d+/, ''),
      },
    },
    { name: 'semi-space 4 MB', env: { ...base, NODE_OPTIONS: flag('--max-semi-space-size', '4') } },
    { name: 'V8 pool default (4)', env: { ...base, NODE_OPTIONS: flag('--v8-pool-size') } },
    { name: 'malloc arenas uncapped', env: noArenaCap },
    { name: 'MALLOC_ARENA_MAX=1', env: { ...base, MALLOC_ARENA_MAX: '1' } },
    { name: 'UV_THREADPOOL_SIZE=1', env: { ...base, UV_THREADPOOL_SIZE: '1' } },
    { ...baseline, name: 'the Deployment again' },
  ];
}

/** The run's environment without the process settings the variants replace. */
const limitsOf = (env: Record<string, string>) =>
  Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('KEYCLOAK_')));

/** Restarts the operator under each variant (`entry`, `args`, `env` as the bench ran it) until it has reconciled
 * every one of `resources` realms and clients once and its queues are empty; returns the table's lines. */
export async function* compareVariants(
  env: TestEnv,
  run: { entry: string; args: string[]; env: Record<string, string> },
  resources: number,
): AsyncGenerator<string> {
  for (const v of memoryVariants(processEnv())) {
    const started = performance.now();
    const op = await startOperator(env, {
      args: run.args,
      entry: run.entry,
      env: { ...limitsOf(run.env), ...v.env },
    });
    await eventually(`the operator (${v.name}) to resync every resource`, 900_000, async () => {
      const done: number =
        (await op.counter('realmforge_reconcile_total', { kind: 'IdentityRealm' })) +
        (await op.counter('realmforge_reconcile_total', { kind: 'IdentityClient' }));
      const depth = await op.counter('realmforge_workqueue_depth');
      return done >= resources && depth === 0 ? true : undefined;
    });
    const ms = performance.now() - started;
    const rss = peakRssMb(op.proc.pid);
    const cpu = cpuSeconds(op.proc.pid);
    await op.stop();
    yield `${v.name.padEnd(32)} peak RSS ${rss.toFixed(1).padStart(6)} MB, CPU ${cpu.toFixed(1).padStart(5)} s, all resynced in ${seconds(ms)}`;
  }
}
