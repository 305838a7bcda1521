// Two operator replicas with leader election, under the operator's ServiceAccount: exactly one reconciles, the
// standby writes nothing, and killing the leader hands over within the lease duration.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, type TestEnv } from '../../scripts/testenv/harness.ts';
import { identityServer, waitStatus } from '../../scripts/testenv/identity-fixtures.ts';
import { type OperatorProcess, operatorKubeconfig } from '../../scripts/testenv/operator-process.ts';
import { type OperatorSuite, operatorSuite } from './helpers/operator-suite.ts';

let suite: OperatorSuite;
let env: TestEnv;
let ns: string;
const replicas: OperatorProcess[] = [];

test.before(async () => {
  suite = await operatorSuite('op-leader', { database: false, startOperator: false });
  ({ env, ns } = suite);
  const kubeconfig = await operatorKubeconfig(env);
  for (const name of ['replica-a', 'replica-b']) {
    replicas.push(
      await suite.startOperator({ kubeconfig, args: ['--leader-elect'], env: { POD_NAME: name } }),
    );
  }
});
test.after(() => suite?.close('SIGKILL'));

const leaderFlag = (r: OperatorProcess) => r.counter('realmforge_leader');
const writesOf = async (r: OperatorProcess) =>
  (await r.counter('realmforge_kube_requests_total', { verb: 'apply' })) +
  (await r.counter('realmforge_kube_requests_total', { verb: 'apply-status' }));

test('exactly one replica leads and reconciles; the standby writes nothing', async () => {
  await eventually('one replica to lead', 30_000, async () => {
    const flags = await Promise.all(replicas.map(leaderFlag));
    return flags.filter((f) => f === 1).length === 1 ? true : undefined;
  });
  // A server without its database cluster: the leader reports it (a status write), nothing else happens.
  await env.apply(identityServer(ns, 'first', 'absent') as never);
  await waitStatus(
    env,
    'identityservers',
    ns,
    'first',
    30_000,
    (s) => s.reason === 'DatabaseClusterMissing',
    'to be reported',
  );
  const leaderIndex = (await leaderFlag(replicas[0])) === 1 ? 0 : 1;
  const standby = replicas[1 - leaderIndex];
  assert.ok((await writesOf(replicas[leaderIndex])) > 0, 'the leader wrote');
  assert.is(await writesOf(standby), 0, 'the standby wrote nothing');
  assert.is(await standby.counter('realmforge_reconcile_total'), 0, 'the standby reconciled nothing');
  const lease = await env.request(
    'GET',
    '/apis/coordination.k8s.io/v1/namespaces/realmforge-system/leases/realmforge-operator',
  );
  assert.is(lease.body.spec.holderIdentity, leaderIndex === 0 ? 'replica-a' : 'replica-b');
});

test('killing the leader hands over within the lease duration', async () => {
  const leaderIndex = (await leaderFlag(replicas[0])) === 1 ? 0 : 1;
  const standby = replicas[1 - leaderIndex];
  await replicas[leaderIndex].stop('SIGKILL');
  const killed = Date.now();
  await eventually('the standby to take over', 30_000, async () =>
    (await leaderFlag(standby)) === 1 ? true : undefined,
  );
  const handover = (Date.now() - killed) / 1000;
  assert.ok(handover <= 15 + 2 + 3, `handover took ${handover.toFixed(1)} s (lease 15 s, retry 2 s)`);
  await env.apply(identityServer(ns, 'second', 'absent') as never);
  await waitStatus(
    env,
    'identityservers',
    ns,
    'second',
    30_000,
    (s) => s.reason === 'DatabaseClusterMissing',
    'to be reported by the new leader',
  );
});

test.run();
