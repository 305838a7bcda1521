// Reconcile p50/p95 in the bench: the window between two snapshots, summed over the kinds asked for,
// interpolated within the bucket as Prometheus does.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bucketsBetween, histogramBuckets, quantile } from '../../scripts/bench/histogram.ts';

const name = 'realmforge_reconcile_duration_seconds';
const snapshot = (realm: number[], client: number[]) =>
  ['0.1', '1', '10', '+Inf']
    .flatMap((le, i) => [
      `${name}_bucket{kind="IdentityRealm",le="${le}"} ${realm[i]}`,
      `${name}_bucket{kind="IdentityClient",le="${le}"} ${client[i]}`,
    ])
    .concat([`${name}_count{kind="IdentityRealm"} ${realm[3]}`, 'other_bucket{le="1"} 99'])
    .join('\n');

test('the window is the difference of two snapshots, summed over the kinds accepted', () => {
  const before = histogramBuckets(snapshot([5, 5, 5, 5], [0, 0, 0, 0]), name);
  const after = histogramBuckets(snapshot([5, 15, 25, 25], [0, 10, 10, 10]), name);
  assert.equal(
    [...bucketsBetween(before, after)],
    [
      [0.1, 0],
      [1, 20],
      [10, 30],
      [Number.POSITIVE_INFINITY, 30],
    ],
  );
  const realmsOnly = histogramBuckets(snapshot([5, 15, 25, 25], [0, 10, 10, 10]), name, (l) =>
    l.includes('kind="IdentityRealm"'),
  );
  assert.is(realmsOnly.get(1), 15);
});

test('a quantile is interpolated linearly inside the bucket its rank falls in', () => {
  const w = new Map([
    [0.1, 0],
    [1, 20],
    [10, 30],
    [Number.POSITIVE_INFINITY, 30],
  ]);
  // rank 15 of 30: three quarters into (0.1, 1]
  assert.ok(Math.abs((quantile(w, 0.5) ?? 0) - 0.775) < 1e-9);
  // rank 28.5: 8.5 of the 10 in (1, 10]
  assert.ok(Math.abs((quantile(w, 0.95) ?? 0) - 8.65) < 1e-9);
});

test('nothing observed has no quantile; a rank in +Inf answers the last finite bound', () => {
  assert.is(
    quantile(
      new Map([
        [1, 0],
        [Number.POSITIVE_INFINITY, 0],
      ]),
      0.5,
    ),
    undefined,
  );
  assert.is(
    quantile(
      new Map([
        [1, 1],
        [Number.POSITIVE_INFINITY, 10],
      ]),
      0.95,
    ),
    1,
  );
});

test.run();
