// Follows a collection through a watch: the list first (what exists counts as added), then every change the API
// server reports, resumed from the last resourceVersion when the server or the client's inactivity timeout closes
// it. A poll would miss states that last less than its interval, and listing thousands of objects every few
// seconds costs the API server more than the thing being measured (the scale bench's 11,000 resources).
import { Watch } from '@kubernetes/client-node';
import type { TestEnv } from './harness.ts';

/** One change as the watch delivered it (its object is read field by field by each caller, untyped). */
export type WatchedChange = { type: string; object: any };

/**
 * Watches `path` (a collection, with `query` such as labelSelector) and calls `onChange` for each object listed at
 * the start and each change after. `stop()` ends it and throws a failure of the watch itself (not a close).
 */
export async function watchCollection(
  env: TestEnv,
  path: string,
  query: Record<string, string>,
  onChange: (change: WatchedChange) => void,
): Promise<{ stop(): Promise<void> }> {
  const list = await env.request('GET', `${path}?${new URLSearchParams(query)}`);
  if (list.status !== 200) throw new Error(`list ${path}: ${list.status} ${JSON.stringify(list.body)}`);
  for (const object of list.body.items ?? []) onChange({ type: 'ADDED', object });
  let resourceVersion: string = list.body.metadata.resourceVersion;
  let stopped = false;
  let failure: unknown;
  let abort: AbortController | undefined;
  const start = async (): Promise<void> => {
    abort = await new Watch(env.kubeconfig).watch(
      path,
      { ...query, resourceVersion, allowWatchBookmarks: true },
      (type, object) => {
        resourceVersion = object?.metadata?.resourceVersion ?? resourceVersion;
        if (type === 'BOOKMARK') return;
        if (type === 'ERROR') {
          failure = new Error(`watch ${path}: ${JSON.stringify(object)}`);
          return;
        }
        onChange({ type, object });
      },
      (err) => {
        if (stopped) return;
        // A close by the server, or the client's 30 s inactivity timeout on a quiet collection, is resumed from
        // the last resourceVersion: nothing is missed. Anything else ends the watch with that failure.
        if (err && !['AbortError', 'TimeoutError'].includes(err.name)) failure ??= err;
        else void start().catch((e) => (failure ??= e));
      },
    );
  };
  await start();
  return {
    async stop() {
      stopped = true;
      abort?.abort();
      if (failure) throw failure;
    },
  };
}
