// Side by side in one run: the operator restarted under each memory setting over the same resources, each doing
// the same work (the first resync of every realm and client after a start), one variable at a time against the
// Deployment's settings. Prints peak RSS, CPU seconds and time to resync everything, so a setting's memory gain
// is shown next to its CPU cost. The baseline runs first and last: the difference between the two is the noise.
import type { TestEnv } from '../testenv/harness.ts';
import { eventually } from '../testenv/harness.ts';
import { startOperator } from '../testenv/operator-process.ts';
import { memoryVariants } from './memory-settings.ts';
import { cpuSeconds, peakRssMb, processEnv, seconds } from './operator-common.ts';

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
