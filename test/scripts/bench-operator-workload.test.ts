// `bench:operator -- realms|scale|tenants` flags: the issues' defaults, smaller runs by flag, the sizes at which
// read passes are measured, and a bad count refused with the flag named before any environment starts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { tenantsDefault, workloadFrom } from '../../scripts/bench/workload-flags.ts';

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

test('tenants: production realms with one client each, imported with their clients, goals of issue 36', () => {
  const w = workloadFrom('tenants', ['tenants']);
  assert.equal(
    [w.realms, w.clientsPerRealm, w.production, w.importClients, w.phased, w.convergenceGoal, w.rssGoalMb],
    [tenantsDefault, 1, true, true, false, 1.2, 150],
  );
  assert.equal(w.realmGoals, { callsAtCreation: 3, readsPerInterval: 1.5 });
  // Read passes at 10 realms and at the full size; a run of 10 measures once.
  assert.equal(w.cpuAt, [10, tenantsDefault]);
  assert.equal(workloadFrom('tenants', ['--realms=10']).cpuAt, [10]);
  assert.equal(workloadFrom('realms', ['realms']).realmGoals, undefined);
});

test('read passes: scale at 10, 100 and 1,000 realms and its full size; none for realms', () => {
  assert.equal(workloadFrom('scale', ['scale']).cpuAt, [10, 100, 1000]);
  assert.equal(workloadFrom('scale', ['--realms=300']).cpuAt, [10, 100, 300]);
  assert.equal(workloadFrom('scale', ['--realms=5']).cpuAt, [5]);
  assert.equal(workloadFrom('realms', ['realms', '--production']).cpuAt, []);
  assert.equal(workloadFrom('realms', ['realms']).importClients, false);
});

test.run();
