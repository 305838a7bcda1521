// Quantiles of a Prometheus histogram read from two /metrics snapshots (the window between them), as
// histogram_quantile computes them: linear within the bucket the rank falls in. The bench reports reconcile
// p50/p95 this way from realmforge_reconcile_duration_seconds.

/** Cumulative bucket counts by upper bound (`le`), summed over the series whose labels `which` accepts. */
export type Buckets = Map<number, number>;

/** The buckets of histogram `name` in a /metrics text, summed over the series `which` accepts (all by default). */
export function histogramBuckets(
  text: string,
  name: string,
  which: (labels: string) => boolean = () => true,
): Buckets {
  const buckets: Buckets = new Map();
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}_bucket{`)) continue;
    const labels = line.slice(line.indexOf('{') + 1, line.lastIndexOf('}'));
    if (!which(labels)) continue;
    const le = /le="([^"]+)"/.exec(labels)?.[1] ?? '';
    const bound = le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le);
    buckets.set(bound, (buckets.get(bound) ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1)));
  }
  return buckets;
}

/** What was observed between two snapshots. */
export function bucketsBetween(before: Buckets, after: Buckets): Buckets {
  return new Map([...after].map(([le, n]) => [le, n - (before.get(le) ?? 0)]));
}

/** The q-quantile (0..1) in seconds, or undefined when nothing was observed; the last finite bound when the rank
 * falls in +Inf. */
export function quantile(buckets: Buckets, q: number): number | undefined {
  const sorted = [...buckets].sort((a, b) => a[0] - b[0]);
  const total = sorted.at(-1)?.[1] ?? 0;
  if (total <= 0) return undefined;
  const rank = q * total;
  let lowerBound = 0;
  let lowerCount = 0;
  for (const [le, count] of sorted) {
    if (count >= rank) {
      if (le === Number.POSITIVE_INFINITY) return lowerBound;
      if (count === lowerCount) return le;
      return lowerBound + ((le - lowerBound) * (rank - lowerCount)) / (count - lowerCount);
    }
    lowerBound = le;
    lowerCount = count;
  }
  return lowerBound;
}
