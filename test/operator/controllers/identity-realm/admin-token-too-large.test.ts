// A realm and a client on a Keycloak that refuses the operator's token as too large: both show
// Provisioning/AdminTokenTooLarge with the fix, and are looked at again every drift interval instead of being
// retried with backoff as "KeycloakUnavailable".
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { manualClock } from '../../../../src/core/clock.ts';
import type { KubeObject } from '../../../../src/operator/compile/kube-object.ts';
import { identityClientController } from '../../../../src/operator/controllers/identity-client/identity-client.ts';
import { identityRealmController } from '../../../../src/operator/controllers/identity-realm/identity-realm.ts';
import { createAdminClient } from '../../../../src/operator/keycloak/admin-client.ts';
import { keycloakAdmins } from '../../../../src/operator/keycloak/admins.ts';
import type { KeycloakDeps } from '../../../../src/operator/keycloak/keycloak-deps.ts';
import type { Deps } from '../../../../src/operator/runtime/deps.ts';
import { loadEndpointMap } from '../../../../src/operator/runtime/endpoint-map.ts';
import { headerLimitedKeycloak, plainDeps } from '../../keycloak/header-limited-keycloak.ts';
import { fakeKube } from '../fake-kube.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const meta = (name: string, namespace: string) => ({ name, namespace, uid: `uid-${name}`, generation: 1 });
const world: KubeObject[] = [
  {
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityServer',
    metadata: meta('kc', 'identity'),
    spec: { image: { tag: '26.0.7' }, database: { cluster: 'pg' }, realmAuthorizationGrants: ['team'] },
    status: { phase: 'Ready' },
  } as KubeObject,
  {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'kc-admin-credentials', namespace: 'identity' },
    data: { username: b64('admin'), password: b64('pw') },
  },
  {
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityRealm',
    metadata: meta('tenant', 'team'),
    spec: { serverRef: { name: 'kc', namespace: 'identity' }, clientAuthorizationGrants: ['team'] },
    status: { phase: 'Ready' },
  } as KubeObject,
  {
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityClient',
    metadata: meta('app', 'team'),
    spec: { realmRef: { name: 'tenant' }, redirectUris: ['https://app.example/cb'] },
  } as KubeObject,
];

test('a 431 shows AdminTokenTooLarge on realms and clients and is looked at again every drift interval', async () => {
  const kc = await headerLimitedKeycloak({ tokenBytes: 40_000, limit: 20_480 });
  try {
    const kube = fakeKube(world);
    const base: Deps = {
      kube,
      http: (url, init) => fetch(url, init),
      endpoints: loadEndpointMap(JSON.stringify({ endpoints: { 'kc.identity.svc:8080': kc.url } })),
      clock: manualClock(),
      random: () => 0.5,
      newPassword: () => 'unused',
      logger: { info() {}, warn() {}, error() {} },
    };
    const admins = keycloakAdmins(base, (url, admin) => createAdminClient(url, admin, plainDeps()));
    const deps: KeycloakDeps = { ...base, admins, driftIntervalMs: 60_000 };
    const client = await identityClientController(deps)('team/app');
    const realm = await identityRealmController(deps)('team/tenant');
    for (const [kind, name, result] of [
      ['IdentityRealm', 'tenant', realm],
      ['IdentityClient', 'app', client],
    ] as const) {
      const status = kube.find(kind, 'team', name)?.status as Record<string, string>;
      assert.is(status.phase, 'Provisioning', kind);
      assert.is(status.reason, 'AdminTokenTooLarge', kind);
      assert.match(status.message, /admin access token is 40000 bytes/);
      assert.equal(result.outcome?.reason, 'AdminTokenTooLarge');
      assert.is(result.requeueAfterMs, 60_000, `${kind}: the drift interval, not a backoff loop`);
    }
  } finally {
    await kc.close();
  }
});

test.run();
