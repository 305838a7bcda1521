// `bench:operator -- realms|scale` flags: the scale defaults, smaller runs by flag, and a bad count refused
// with the flag named before any environment starts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { workloadFrom } from '../../scripts/bench/workload-flags.ts';

test('scale defaults to 1,000 realms in 50 namespaces with 10 clients each and three drift intervals', () => {
  const w = workloadFrom('scale', ['scale']);
  assert.equal(
    [w.realms, w.namespaces, w.clientsPerRealm, w.intervals, w.phased, w.rssGoalMb, w.convergenceGoal],
    [1000, 50, 10, 3, true, 250, 1.3],
  );
  // 11,000 resources resynced within the 100 TPS global limit, and Keycloak's heap for 1,000 realms.
  assert.equal([w.driftS, w.keycloakMemory], [180, '4Gi']);
  assert.equal(
    [workloadFrom('realms', ['realms']).driftS, workloadFrom('realms', ['realms']).keycloakMemory],
    [20, '2Gi'],
  );
});

test('the realms case keeps its size and goals; counts are flags', () => {
  const realms = workloadFrom('realms', ['realms']);
  assert.equal(
    [realms.realms, realms.clientsPerRealm, realms.namespaces, realms.phased, realms.rssGoalMb],
    [50, 4, 10, false, 110],
  );
  const small = workloadFrom('scale', [
    'scale',
    '--realms=100',
    '--clients-per-realm=3',
    '--namespaces=5',
    '--memory-variants',
  ]);
  assert.equal([small.realms, small.clientsPerRealm, small.namespaces, small.variants], [100, 3, 5, true]);
});

test('a count that is not a whole number of at least 1 is refused naming the flag', () => {
  assert.throws(() => workloadFrom('scale', ['--realms=0']), /--realms=0: give a whole number of at least 1/);
  assert.throws(() => workloadFrom('scale', ['--clients-per-realm=two']), /--clients-per-realm=two/);
  assert.throws(() => workloadFrom('scale', ['--realmz=3']), /realmz/);
});

test.run();
