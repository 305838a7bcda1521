// Waiting on the benches' resources: the Ready count of a kind kept by a watch (polled with until.ts), and the realm
// counts at which progress is reported.
import type { TestEnv } from '../testenv/harness.ts';
import { watchCollection } from '../testenv/watch-collection.ts';

/** Marks at which realm counts the create times and token sizes are reported. */
export const checkpoints = (realms: number) => {
  const step = realms >= 1000 ? 100 : Math.max(10, Math.round(realms / 10));
  return Array.from({ length: Math.ceil(realms / step) }, (_, i) => Math.min(realms, (i + 1) * step));
};

/** The Ready count of a kind across namespaces, kept by a watch (a list of 11,000 objects every 2 s would load
 * the API server more than the operator does); being in memory, it is polled every `readyPollMs` (until.ts). */
export async function readyCount(env: TestEnv, plural: string) {
  const phases = new Map<string, string>();
  const watch = await watchCollection(env, `/apis/realmforge.dev/v1/${plural}`, {}, ({ type, object }) => {
    const key = `${object.metadata?.namespace}/${object.metadata?.name}`;
    if (type === 'DELETED') phases.delete(key);
    else phases.set(key, object.status?.phase ?? '');
  });
  return {
    ready: async () => [...phases.values()].filter((p) => p === 'Ready').length,
    stop: () => watch.stop(),
  };
}
