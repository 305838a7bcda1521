import type { V1Deployment, V1PersistentVolumeClaim, V1Pod } from '@kubernetes/client-node';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityServer } from '../../../../generated/types/crds/identityserver.ts';
import {
  computeServerStatus,
  failedServerStatus,
} from '../../../../src/operator/controllers/identity-server/server-status.ts';
import {
  observeDatabaseCluster,
  type ServerObservation,
} from '../../../../src/operator/controllers/identity-server/server-stuck.ts';

const t0 = new Date('2026-01-01T00:00:00Z');
const t1 = new Date('2026-01-01T00:05:00Z');

const server: IdentityServer = {
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityServer',
  metadata: { name: 'kc', namespace: 'identity', uid: 'u1', generation: 3 },
  spec: { image: { tag: '26.0.7' }, database: { cluster: 'pg', namespace: 'db' } },
};

// A Deployment whose rollout is complete, as kubectl rollout status judges it.
const available: V1Deployment = {
  metadata: { generation: 2 },
  spec: { replicas: 1 } as V1Deployment['spec'],
  status: {
    observedGeneration: 2,
    replicas: 1,
    updatedReplicas: 1,
    availableReplicas: 1,
    readyReplicas: 1,
    conditions: [{ type: 'Available', status: 'True' }],
  },
};
const rolling = (status: Record<string, number>, generation = 2): V1Deployment => ({
  ...available,
  metadata: { generation },
  status: { ...available.status, ...status },
});
const healthyCluster = observeDatabaseCluster({ status: { phase: 'Cluster in healthy state' } });
const ok: ServerObservation = {
  databaseCluster: healthyCluster,
  databaseSecretFound: true,
  deployment: available,
  pods: [],
  claims: [],
  health: { state: 'ok' },
  token: { state: 'ok' },
};

const pod = (containerStatus: Record<string, unknown>, conditions: Record<string, unknown>[] = []): V1Pod =>
  ({
    metadata: { name: 'kc-abc' },
    status: {
      conditions,
      containerStatuses: [
        {
          name: 'keycloak',
          image: 'quay.io/keycloak/keycloak:26.0.7',
          ready: false,
          restartCount: 0,
          ...containerStatus,
        },
      ],
    },
  }) as unknown as V1Pod;
const notAvailable: V1Deployment = {
  status: { readyReplicas: 0, conditions: [{ type: 'Available', status: 'False' }] },
};
const starting = {
  deployment: notAvailable,
  health: { state: 'skipped' },
  token: { state: 'skipped' },
} as const;

const table: [string, Partial<ServerObservation>, string, string, string][] = [
  // name, observation override, phase, reason, Degraded status
  ['all good', {}, 'Ready', 'Ready', 'False'],
  [
    'database cluster missing',
    { databaseCluster: observeDatabaseCluster(undefined) },
    'Pending',
    'DatabaseClusterMissing',
    'True',
  ],
  [
    'credentials secret missing',
    { databaseSecretFound: false },
    'Pending',
    'DatabaseCredentialsMissing',
    'True',
  ],
  [
    'database not ready (phase)',
    { databaseCluster: observeDatabaseCluster({ status: { phase: 'Setting up primary' } }) },
    'Pending',
    'DatabaseNotReady',
    'False',
  ],
  [
    'database not ready (condition wins)',
    {
      databaseCluster: observeDatabaseCluster({
        status: { phase: 'Cluster in healthy state', conditions: [{ type: 'Ready', status: 'False' }] },
      }),
    },
    'Pending',
    'DatabaseNotReady',
    'False',
  ],
  [
    'image pull failure',
    {
      ...starting,
      pods: [pod({ state: { waiting: { reason: 'ImagePullBackOff', message: 'not found' } } })],
    },
    'Provisioning',
    'ImagePullFailed',
    'True',
  ],
  [
    'unschedulable',
    {
      ...starting,
      pods: [
        pod({}, [
          {
            type: 'PodScheduled',
            status: 'False',
            reason: 'Unschedulable',
            message: '0/1 nodes: Insufficient memory',
          },
        ]),
      ],
    },
    'Provisioning',
    'Unschedulable',
    'True',
  ],
  [
    'volume claim pending',
    {
      ...starting,
      claims: [{ metadata: { name: 'data' }, status: { phase: 'Pending' } } as V1PersistentVolumeClaim],
    },
    'Provisioning',
    'VolumeClaimPending',
    'True',
  ],
  [
    'crash loop',
    {
      ...starting,
      pods: [
        pod({
          restartCount: 4,
          state: { waiting: { reason: 'CrashLoopBackOff' } },
          lastState: { terminated: { reason: 'OOMKilled', exitCode: 137 } },
        }),
      ],
    },
    'Provisioning',
    'CrashLoop',
    'True',
  ],
  [
    'probes failing',
    { ...starting, pods: [pod({ started: true, ready: false, state: { running: {} } })] },
    'Provisioning',
    'ProbesFailing',
    'True',
  ],
  [
    'still starting',
    { ...starting, pods: [pod({ started: false, state: { running: {} } })] },
    'Provisioning',
    'DeploymentNotAvailable',
    'False',
  ],
  [
    'a new spec not yet observed by the Deployment controller',
    { deployment: rolling({}, 3) },
    'Provisioning',
    'RolloutInProgress',
    'False',
  ],
  [
    'the new pod not yet updated (the old one still serves)',
    { deployment: rolling({ updatedReplicas: 0, replicas: 1 }) },
    'Provisioning',
    'RolloutInProgress',
    'False',
  ],
  [
    'an old pod still terminating',
    { deployment: rolling({ replicas: 2 }) },
    'Provisioning',
    'RolloutInProgress',
    'False',
  ],
  [
    'the updated pod not yet available',
    { deployment: rolling({ availableReplicas: 0 }) },
    'Provisioning',
    'RolloutInProgress',
    'False',
  ],
  [
    'an older version stopping before the new one starts',
    { stopping: ['25.0.6'], version: '26.0.7', pods: [pod({ state: { running: {} }, ready: true })] },
    'Provisioning',
    'UpgradeInProgress',
    'False',
  ],
  [
    'health not UP',
    { health: { state: 'failed', message: 'status DOWN' } },
    'Provisioning',
    'HealthNotReady',
    'False',
  ],
  [
    'admin token refused (the database has another admin)',
    { token: { state: 'failed', message: 'HTTP 401 invalid_grant' } },
    'Provisioning',
    'AdminCredentialsRejected',
    'True',
  ],
  [
    'admin API failing',
    { token: { state: 'failed', message: 'Keycloak GET /master failed after 4 attempts: HTTP 503' } },
    'Provisioning',
    'KeycloakUnavailable',
    'False',
  ],
];

for (const [name, override, phase, reason, degraded] of table) {
  test(`status: ${name} -> ${phase}/${reason}`, () => {
    const status = computeServerStatus(server, { ...ok, ...override }, t0);
    assert.is(status.phase, phase);
    assert.is(status.reason, reason);
    const cond = (type: string) => status.conditions?.find((c) => c.type === type);
    assert.is(cond('Ready')?.status, phase === 'Ready' ? 'True' : 'False');
    assert.is(cond('Ready')?.reason, reason);
    assert.is(cond('Degraded')?.status, degraded);
    assert.is(status.observedGeneration, 3);
    assert.ok(status.message && status.message.length > 0);
  });
}

test('a ready status reports endpoints, replicas, version and the admin secret', () => {
  const status = computeServerStatus(server, ok, t0);
  assert.equal(status.endpoints, {
    internal: 'http://kc.identity.svc:8080',
    management: 'http://kc.identity.svc:9000',
  });
  assert.is(status.readyReplicas, 1);
  assert.is(status.version, '26.0.7');
  assert.is(status.adminSecret, 'kc-admin-credentials');
});

test('recomputing with nothing changed gives an identical status (zero writes), transition times kept', () => {
  const first = computeServerStatus(server, ok, t0);
  const again = computeServerStatus({ ...server, status: first }, ok, t1);
  assert.equal(again, first);
  const changed = computeServerStatus(
    { ...server, status: first },
    { ...ok, token: { state: 'failed', message: 'HTTP 500 unknown_error' } },
    t1,
    60_000,
  );
  const cond = (type: string) => changed.conditions?.find((c) => c.type === type);
  assert.is(cond('Ready')?.status, 'True', 'Ready is held through the outage');
  assert.is(cond('Ready')?.lastTransitionTime, t0.toISOString());
  assert.is(cond('Synced')?.status, 'False');
  assert.is(cond('Synced')?.reason, 'KeycloakUnavailable');
  assert.is(cond('Synced')?.lastTransitionTime, t1.toISOString());
  assert.equal([changed.phase, changed.reason], ['Ready', 'KeycloakUnavailable']);
  assert.match(changed.message ?? '', /HTTP 500 unknown_error/);
  const later = new Date(t1.getTime() + 60_000);
  const expired = computeServerStatus(
    { ...server, status: changed },
    { ...ok, token: { state: 'failed', message: 'HTTP 500 unknown_error' } },
    later,
    60_000,
  );
  assert.is(expired.phase, 'Provisioning', 'not Ready once the grace is over');
  const ready = expired.conditions?.find((c) => c.type === 'Ready');
  assert.is(ready?.lastTransitionTime, later.toISOString());
  assert.is(expired.version, '26.0.7', 'the version that ran before is kept while not ready');
});

test('status.version changes only when the rollout to the new version is complete', () => {
  const before = computeServerStatus(server, ok, t0);
  const upgraded = { ...server, spec: { ...server.spec, image: { tag: '26.1.0' } }, status: before };
  const during = computeServerStatus(upgraded, { ...ok, deployment: rolling({ updatedReplicas: 0 }) }, t1);
  assert.is(during.version, '26.0.7');
  assert.is(computeServerStatus(upgraded, ok, t1).version, '26.1.0');
});

test('a failed status names the reason and keeps the rest of the previous status', () => {
  const before = computeServerStatus(server, ok, t0);
  const status = failedServerStatus(
    { ...server, status: before },
    'InvalidSpec',
    'spec.image.tag 24.0.0 is below 25.0.0',
    t1,
  );
  assert.is(status.phase, 'Failed');
  assert.is(status.reason, 'InvalidSpec');
  assert.is(status.endpoints?.internal, 'http://kc.identity.svc:8080');
  assert.is(status.conditions?.find((c) => c.type === 'Degraded')?.status, 'True');
});

test.run();
