// Version changes of an IdentityServer: the old pods stop before the new version starts, status.version and
// status.databaseVersion follow what runs, Ready is False from the first reconcile of the change until the new pod
// serves, and a downgrade below the migrated version is refused.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KubeObject } from '../../../../src/operator/compile/kube-object.ts';
import { identityServerController } from '../../../../src/operator/controllers/identity-server/identity-server.ts';
import type { HttpClient } from '../../../../src/operator/runtime/deps.ts';
import { type FakeKube, fakeKube } from '../fake-kube.ts';
import {
  cluster,
  dbSecret,
  deployment,
  deps,
  fakeKeycloak,
  idServer,
  keycloakPod,
  makeAvailable,
} from './server-fixtures.ts';

test('a version change stops the old pods before the new version starts; version and databaseVersion follow', async () => {
  const kc = await fakeKeycloak({ health: 'UP', password: 'generated-pw' });
  try {
    const kube = fakeKube([idServer({ image: { tag: '25.0.6' } }), dbSecret, cluster]);
    const reconcile = identityServerController(deps(kube, kc.url));
    await reconcile('identity/kc');
    makeAvailable(kube);
    kube.put(keycloakPod('kc-old', '25.0.6'));
    assert.is((await reconcile('identity/kc')).outcome?.phase, 'Ready');
    const ready = kube.find('IdentityServer', 'identity', 'kc') as KubeObject;
    assert.is((ready.status as { databaseVersion?: string }).databaseVersion, '25.0.6');

    kube.put({ ...ready, spec: { ...(ready.spec as object), image: { tag: '26.0.7' } } });
    const stopping = await reconcile('identity/kc');
    assert.is(stopping.outcome?.reason, 'UpgradeInProgress');
    assert.is(deployment(kube).spec.replicas, 0, 'old version stopped first');
    assert.match(deployment(kube).spec.template.spec.containers[0]?.image ?? '', ':26.0.7');
    const during = kube.find('IdentityServer', 'identity', 'kc')?.status as Record<string, unknown>;
    assert.is(during.version, '25.0.6', 'status.version is what serves');
    assert.is(during.databaseVersion, '25.0.6', 'nothing of 26 has started yet');
    const readyCondition = (during.conditions as { type: string; status: string }[]).find(
      (c) => c.type === 'Ready',
    );
    assert.is(readyCondition?.status, 'False');

    kube.objects.delete('Pod/identity/kc-old');
    const starting = await reconcile('identity/kc');
    assert.is(deployment(kube).spec.replicas, 1, 'the new version starts once no old pod is left');
    assert.is(starting.outcome?.phase, 'Provisioning');
    const migrating = kube.find('IdentityServer', 'identity', 'kc')?.status as Record<string, unknown>;
    assert.is(migrating.version, '25.0.6');
    assert.is(migrating.databaseVersion, '26.0.7');
    makeAvailable(kube);
    kube.put(keycloakPod('kc-new', '26.0.7'));
    assert.is((await reconcile('identity/kc')).outcome?.phase, 'Ready');
    const after = kube.find('IdentityServer', 'identity', 'kc')?.status as { version?: string } | undefined;
    assert.is(after?.version, '26.0.7');
  } finally {
    await kc.close();
  }
});

/** A server Ready on `tag` with one pod of it; `http` sees every call the controller makes to Keycloak. */
async function readyServer(tag: string, kcUrl: string, http: HttpClient, kube = fakeKube()) {
  kube.put(idServer({ image: { tag } }));
  kube.put(dbSecret);
  kube.put(cluster);
  const reconcile = identityServerController(deps(kube, kcUrl, http));
  await reconcile('identity/kc');
  makeAvailable(kube);
  kube.put(keycloakPod('kc-old', tag));
  assert.is((await reconcile('identity/kc')).outcome?.phase, 'Ready');
  return { kube, reconcile };
}

const setSpec = (kube: FakeKube, spec: Record<string, unknown>) => {
  const current = kube.find('IdentityServer', 'identity', 'kc') as KubeObject;
  kube.put({ ...current, spec: { ...(current.spec as object), ...spec } });
};

test('the first reconcile of a version change says UpgradeInProgress at once, without probing the Keycloak being stopped', async () => {
  const kc = await fakeKeycloak({ health: 'UP', password: 'generated-pw' });
  try {
    const calls: string[] = [];
    const http: HttpClient = (url, init) => {
      calls.push(String(url));
      return fetch(url, init);
    };
    const { kube, reconcile } = await readyServer('25.0.6', kc.url, http);
    calls.length = 0;
    setSpec(kube, { image: { tag: '26.0.7' } });
    const stopping = await reconcile('identity/kc');
    assert.is(stopping.outcome?.reason, 'UpgradeInProgress');
    // A Keycloak being stopped answers late or not at all; the admin client retries it for seconds, long enough
    // for the status to be written after the old pod is gone and overwritten by the next reconcile unseen.
    assert.equal(calls, [], 'no call to the old Keycloak while it is being stopped');
  } finally {
    await kc.close();
  }
});

test('a spec change read back from a watch cache that has not seen the write yet is a rollout, not Ready', async () => {
  const kc = await fakeKeycloak({ health: 'UP', password: 'generated-pw' });
  try {
    const live = fakeKube();
    // The watch cache answers reads; it receives the operator's own write a moment after the apply returns.
    let stale: KubeObject | undefined;
    const cached: FakeKube = {
      ...live,
      async get(ref) {
        if (ref.kind === 'Deployment' && stale) return structuredClone(stale);
        return live.get(ref);
      },
    };
    const { kube, reconcile } = await readyServer('26.0.7', kc.url, (u, i) => fetch(u, i), cached);
    stale = structuredClone(kube.find('Deployment', 'identity', 'kc'));
    setSpec(kube, { resources: { requests: { cpu: '500m', memory: '1Gi' } } });
    const changed = await reconcile('identity/kc');
    assert.ok(changed.outcome?.applied.some((a) => a.startsWith('Deployment identity/kc')));
    assert.is(changed.outcome?.phase, 'Provisioning');
    assert.is(changed.outcome?.reason, 'RolloutInProgress');
    const status = kube.find('IdentityServer', 'identity', 'kc')?.status as Record<string, unknown>;
    assert.match(String(status.message), 'observe the latest spec');
  } finally {
    await kc.close();
  }
});

test('a downgrade below the version the database was migrated to is refused and changes nothing', async () => {
  const server = idServer({ image: { tag: '25.0.6' } });
  const kube = fakeKube([
    { ...server, status: { phase: 'Ready', version: '26.0.7', databaseVersion: '26.0.7' } },
    dbSecret,
    cluster,
  ]);
  const out = await identityServerController(deps(kube, 'http://127.0.0.1:1'))('identity/kc');
  assert.is(out.outcome?.phase, 'Failed');
  assert.is(out.outcome?.reason, 'DowngradeRefused');
  assert.equal(out.outcome?.applied, []);
  assert.is(kube.find('Deployment', 'identity', 'kc'), undefined);
  const status = kube.find('IdentityServer', 'identity', 'kc')?.status as Record<string, string>;
  assert.match(status.message, 'below 26.0.7');
  assert.is(status.version, '26.0.7');
});

test.run();
