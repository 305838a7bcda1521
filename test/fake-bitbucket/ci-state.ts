// Code Insights reports and annotations, and deployments, kept beside the fake's state (one per server).
import type { FakeState } from './state.ts';

/** A Code Insights report on a commit of a repository. */
export type FakeReport = { key: string; body: Record<string, unknown>; created: number };
/** An annotation of a report. */
export type FakeAnnotation = Record<string, unknown> & { externalId?: string; reportKey: string };
/** A deployment of a commit to an environment. */
export type FakeDeployment = Record<string, unknown> & {
  key: string;
  deploymentSequenceNumber: number;
  environment: { key: string };
};
/** Everything CI reports, keyed by `PROJ/slug@commit`. */
export type CiState = {
  reports: Map<string, FakeReport[]>;
  annotations: Map<string, FakeAnnotation[]>;
  deployments: Map<string, FakeDeployment[]>;
};

const all = new WeakMap<FakeState, CiState>();

/** The CI data of a fake server, created empty on first use. */
export function ciState(state: FakeState): CiState {
  let ci = all.get(state);
  if (!ci) {
    ci = { reports: new Map(), annotations: new Map(), deployments: new Map() };
    all.set(state, ci);
  }
  return ci;
}

/** The list under `key`, created empty on first use. */
export function listOf<T>(map: Map<string, T[]>, key: string): T[] {
  let list = map.get(key);
  if (!list) {
    list = [];
    map.set(key, list);
  }
  return list;
}
