// The steady state of the realms and scale benches: drift intervals with nothing changed, each measured on its own
// (Keycloak reads and writes, API-server requests, resyncs), broken down by kind and path, with what wrote.
import type { OperatorProcess } from '../testenv/operator-process.ts';
import { breakdownLines, callCounts, callsBetween, callTotal } from './call-breakdown.ts';
import { bucketsBetween, histogramBuckets, quantile } from './histogram.ts';

const kinds = ['IdentityServer', 'IdentityRealm', 'IdentityClient'];
const durations = 'realmforge_reconcile_duration_seconds';
const managed = (labels: string) => !labels.includes('kind="IdentityServer"');

/** Reconcile p50 and p95 of realms and clients between two /metrics texts, as "p50 0.12 s, p95 1.30 s". */
export function reconcileQuantiles(before: string, after: string): string {
  const window = bucketsBetween(
    histogramBuckets(before, durations, managed),
    histogramBuckets(after, durations, managed),
  );
  const at = (q: number) => quantile(window, q)?.toFixed(3) ?? '-';
  return `p50 ${at(0.5)} s, p95 ${at(0.95)} s`;
}

export type Interval = {
  reads: number;
  writes: number;
  kube: number;
  resyncs: number;
  realmResyncs: number;
  quantiles: string;
};

/** Measures `count` drift intervals of `driftS` seconds one after another; prints one line per interval and the
 * breakdown of the whole window. `resources` is the number of realms and clients. */
export async function steadyState(op: OperatorProcess, resources: number, driftS: number, count: number) {
  const reconcilesByKind = async () =>
    Object.fromEntries(
      await Promise.all(
        kinds.map(async (k) => [k, await op.counter('realmforge_reconcile_total', { kind: k })]),
      ),
    ) as Record<string, number>;
  const verbs = (text: string) =>
    new Map(
      [...text.matchAll(/^realmforge_kube_requests_total\{verb="([^"]+)"\} (\S+)/gm)].map((m) => [
        m[1],
        Number(m[2]),
      ]),
    );
  const snapshot = async () => {
    const text = await op.metrics();
    const byVerb = verbs(text);
    return {
      text,
      byKind: await reconcilesByKind(),
      byVerb,
      kube: [...byVerb.values()].reduce((a, b) => a + b, 0),
    };
  };
  const first = await snapshot();
  const firstLog = op.logs().length;
  const intervals: Interval[] = [];
  let start = first;
  for (let i = 0; i < count; i++) {
    await new Promise((r) => setTimeout(r, driftS * 1000));
    const end = await snapshot();
    // Reads and writes from the counts by path (a token request is neither).
    const calls = callsBetween(callCounts(start.text), callCounts(end.text));
    intervals.push({
      reads: callTotal(calls, (method) => method === 'GET'),
      writes: callTotal(calls, (method, path) => method !== 'GET' && !path.endsWith('/token')),
      kube: end.kube - start.kube,
      resyncs:
        (end.byKind.IdentityRealm ?? 0) +
        (end.byKind.IdentityClient ?? 0) -
        (start.byKind.IdentityRealm ?? 0) -
        (start.byKind.IdentityClient ?? 0),
      realmResyncs: (end.byKind.IdentityRealm ?? 0) - (start.byKind.IdentityRealm ?? 0),
      quantiles: reconcileQuantiles(start.text, end.text),
    });
    start = end;
  }
  const resyncsByKind = Object.fromEntries(
    kinds.map((k) => [k, (start.byKind[k] ?? 0) - (first.byKind[k] ?? 0)]),
  );
  const breakdown = breakdownLines(
    callsBetween(callCounts(first.text), callCounts(start.text)),
    resyncsByKind,
  );
  // What wrote, from the reconcile log lines (each names its writes and errors).
  const wrote = op
    .logs()
    .slice(firstLog)
    .filter((l) => l.writes?.length || l.result === 'error')
    .map((l) => `${l.kind} ${l.namespace}/${l.name}: ${l.error ?? l.writes.join(', ')}`);
  const apiVerbs = [...start.byVerb]
    .map(([verb, n]) => [verb, n - (first.byVerb.get(verb) ?? 0)] as const)
    .filter(([, n]) => n > 0)
    .map(([verb, n]) => `${verb} ${n}`);
  breakdown.push(`API-server requests over the ${count} intervals by verb: ${apiVerbs.join(', ') || 'none'}`);
  const lines = intervals.map((v, i) => {
    const per = (n: number) => (n / resources).toFixed(2);
    return `interval ${i + 1} (${driftS} s, ${v.resyncs} resyncs): Keycloak ${per(v.reads)} reads (goal <= 1) and ${per(v.writes)} writes (goal 0) per resource; API server ${per(v.kube)} requests per resource (goal <= 0.2); reconcile ${v.quantiles}`;
  });
  return { intervals, lines, breakdown, wrote };
}
