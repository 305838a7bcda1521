// Waiting on the benches' resources: a count polled until it reaches a target, the Ready count of a kind kept by a
// watch, and the realm counts at which progress is reported.
import type { TestEnv } from '../testenv/harness.ts';
import { watchCollection } from '../testenv/watch-collection.ts';

/** Polls `count()` every `everyMs` (2 s: an API list) until it reaches `target`; `seen(n)` is told every new
 * count. */
export async function until(
  what: string,
  target: number,
  count: () => Promise<number>,
  seen: (n: number) => Promise<void>,
  everyMs = 2000,
) {
  const deadline = Date.now() + 6 * 3600_000;
  for (let last = -1; ; ) {
    const n = await count();
    if (n !== last) await seen(n);
    last = n;
    if (n >= target) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (${n} of ${target})`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Marks at which realm counts the create times and token sizes are reported. */
export const checkpoints = (realms: number) => {
  const step = realms >= 1000 ? 100 : Math.max(10, Math.round(realms / 10));
  return Array.from({ length: Math.ceil(realms / step) }, (_, i) => Math.min(realms, (i + 1) * step));
};

/** The Ready count of a kind across namespaces, kept by a watch (a list of 11,000 objects every 2 s would load
 * the API server more than the operator does); being in memory, it is polled every `readyPollMs`, so a time to
 * Ready is late by at most that (a 2 s poll added up to 2 s to each of the realms' and the clients' waits). */
export const readyPollMs = 50;

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
