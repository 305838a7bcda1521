// The operator's Keycloak calls in a window, broken down by method and path template and by the kind of resource
// whose reconcile made them (realmforge_keycloak_api_path_requests_total), so that a steady state's reads per
// resync explain themselves: which path, made by which controller, how many per resync of that kind.

/** Call counts by "kind method path". */
export type CallCounts = Map<string, number>;

const series = 'realmforge_keycloak_api_path_requests_total';

/** The counts in a /metrics text. */
export function callCounts(metricsText: string): CallCounts {
  const counts: CallCounts = new Map();
  for (const line of metricsText.split('\n')) {
    if (!line.startsWith(`${series}{`)) continue;
    const label = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(line)?.[1] ?? '';
    const key = `${label('kind')} ${label('method')} ${label('path')}`;
    counts.set(key, (counts.get(key) ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1)));
  }
  return counts;
}

/** What was counted between two snapshots (series that did not move are left out). */
export function callsBetween(before: CallCounts, after: CallCounts): CallCounts {
  const delta: CallCounts = new Map();
  for (const [key, n] of after) {
    const d = n - (before.get(key) ?? 0);
    if (d > 0) delta.set(key, d);
  }
  return delta;
}

/** The calls whose method, path template and kind `which` accepts. */
export function callTotal(
  counts: CallCounts,
  which: (method: string, path: string, kind: string) => boolean,
): number {
  let total = 0;
  for (const [key, n] of counts) {
    const [kind = '', method = '', path = ''] = key.split(' ');
    if (which(method, path, kind)) total += n;
  }
  return total;
}

/**
 * Lines of a table: each kind's reads and writes, per resync of that kind when `resyncs` counts it, then each
 * path with its count and share of a resync, largest first.
 */
export function breakdownLines(delta: CallCounts, resyncs: Record<string, number>): string[] {
  const kinds = new Map<string, { reads: number; writes: number }>();
  for (const [key, n] of delta) {
    const [kind = '', method = ''] = key.split(' ');
    const k = kinds.get(kind) ?? { reads: 0, writes: 0 };
    if (method === 'GET') k.reads += n;
    else k.writes += n;
    kinds.set(kind, k);
  }
  const per = (n: number, kind: string) =>
    resyncs[kind] ? ` = ${(n / resyncs[kind]).toFixed(2)} per ${kind} resync` : '';
  const lines = [...kinds]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([kind, k]) =>
        `${kind.padEnd(15)} ${String(k.reads).padStart(5)} reads${per(k.reads, kind)}, ${k.writes} other calls (${resyncs[kind] ?? 0} resyncs)`,
    );
  for (const [key, n] of [...delta].sort((a, b) => b[1] - a[1])) {
    const [kind = ''] = key.split(' ');
    lines.push(`  ${String(n).padStart(5)}  ${key}${per(n, kind)}`);
  }
  return lines;
}
