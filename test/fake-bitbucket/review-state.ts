// Who watches which pull request, kept beside the pull request data (one per fake server).
import type { FakeState } from './state.ts';

const watchers = new WeakMap<FakeState, Map<string, Set<string>>>();

/** The watchers of pull request `PROJ/slug#id`, created empty on first use. */
export function watchersOf(state: FakeState, pr: string): Set<string> {
  let all = watchers.get(state);
  if (!all) {
    all = new Map();
    watchers.set(state, all);
  }
  let set = all.get(pr);
  if (!set) {
    set = new Set();
    all.set(pr, set);
  }
  return set;
}
