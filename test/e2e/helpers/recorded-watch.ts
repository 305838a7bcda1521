// Records every change the API server reports for a collection, through a watch (scripts/testenv/
// watch-collection.ts): a poll sees only the states that happen to last across its interval, and a status the
// operator writes and replaces within a second (a phase between two reconciles) or a pod that lives briefly would
// slip between two polls.
import type { TestEnv } from '../../../scripts/testenv/harness.ts';
import { type WatchedChange, watchCollection } from '../../../scripts/testenv/watch-collection.ts';

export type { WatchedChange };

export type RecordedWatch = {
  /** Every change so far (what existed at the start first), in the order the API server sent them. */
  readonly changes: WatchedChange[];
  /** Ends the watch; a failure of the watch itself (not a server-side close) is thrown here. */
  stop(): Promise<void>;
};

/** Watches `path` (with `query` such as labelSelector) from now on, recording each change and calling `onChange`. */
export async function recordWatch(
  env: TestEnv,
  path: string,
  query: Record<string, string>,
  onChange: (change: WatchedChange) => void = () => {},
): Promise<RecordedWatch> {
  const changes: WatchedChange[] = [];
  const watch = await watchCollection(env, path, query, (change) => {
    changes.push(change);
    onChange(change);
  });
  return { changes, stop: () => watch.stop() };
}
