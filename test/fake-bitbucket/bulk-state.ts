// State for the settings only bulk writes: repository permissions and default tasks.
import type { FakeState } from './state.ts';

/** A default task of a repository (`repo` PROJ/slug). */
export type FakeDefaultTask = {
  id: number;
  repo: string;
  description: string;
  sourceMatcher: { id: string; type: { id: string } };
  targetMatcher: { id: string; type: { id: string } };
};

/** What the bulk routes read and change, one per fake server. */
export type BulkState = {
  groups: string[];
  /** Keyed by `PROJ/slug|user|name` or `PROJ/slug|group|name`. */
  permissions: Record<string, string>;
  defaultTasks: FakeDefaultTask[];
  nextId: number;
};

const states = new WeakMap<FakeState, BulkState>();

/** The bulk state of a fake, created on first use with two groups. */
export function bulkState(state: FakeState): BulkState {
  let s = states.get(state);
  if (!s) {
    s = {
      groups: ['developers', 'release-managers'],
      permissions: {},
      defaultTasks: [],
      nextId: 1,
    };
    states.set(state, s);
  }
  return s;
}
