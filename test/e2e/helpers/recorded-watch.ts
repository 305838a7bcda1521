// Records every change the API server reports for a collection, through a watch: a poll sees only the states that
// happen to last across its interval, and a status the operator writes and replaces within a second (a phase
// between two reconciles) or a pod that lives briefly would slip between two polls.
import { Watch } from '@kubernetes/client-node';
import type { TestEnv } from '../../../scripts/testenv/harness.ts';

/** One change as the watch delivered it. */
export type WatchedChange = { type: string; object: any };

export type RecordedWatch = {
  /** Every change so far, in the order the API server sent them. */
  readonly changes: WatchedChange[];
  /** Ends the watch; a failure of the watch itself (not a server-side close) is thrown here. */
  stop(): Promise<void>;
};

/**
 * Watches `path` (a collection, with `query` such as labelSelector) from now on and calls `onChange` for each
 * change. A watch that ends without an error of its own is resumed from the last resourceVersion seen.
 */
export async function recordWatch(
  env: TestEnv,
  path: string,
  query: Record<string, string>,
  onChange: (change: WatchedChange) => void = () => {},
): Promise<RecordedWatch> {
  const changes: WatchedChange[] = [];
  const list = await env.request('GET', `${path}?${new URLSearchParams(query)}`);
  if (list.status !== 200) throw new Error(`list ${path}: ${list.status} ${JSON.stringify(list.body)}`);
  // The starting state counts as changes too: what exists when the watch starts is part of what is checked.
  for (const object of list.body.items ?? []) {
    const change = { type: 'ADDED', object };
    changes.push(change);
    onChange(change);
  }
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
        const change = { type, object };
        changes.push(change);
        onChange(change);
      },
      (err) => {
        if (stopped) return;
        // A close by the server, or the client's 30 s inactivity timeout on a quiet collection, is resumed from
        // the last resourceVersion: nothing is missed. Anything else ends the recording with that failure.
        if (err && !['AbortError', 'TimeoutError'].includes(err.name)) failure ??= err;
        else void start().catch((e) => (failure ??= e));
      },
    );
  };
  await start();
  return {
    changes,
    async stop() {
      stopped = true;
      abort?.abort();
      if (failure) throw failure;
    },
  };
}
