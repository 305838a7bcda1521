// The pure pieces of the client controller: drift comparison (sets unordered, Keycloak's extra fields ignored) and
// the credentials Secret's shape and conflict rules.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityClient } from '../../../../generated/types/crds/identityclient.ts';
import {
  credentialsSecret,
  realmEndpoints,
  secretConflict,
} from '../../../../src/operator/controllers/identity-client/client-credentials.ts';
import {
  desiredClient,
  disableClient,
} from '../../../../src/operator/controllers/identity-client/client-sync.ts';
import type { AdminClient } from '../../../../src/operator/keycloak/admin-client.ts';
import { clientDrift } from '../../../../src/operator/keycloak/collections/client-fields.ts';
import { ownerAttribute } from '../../../../src/operator/keycloak/collections/collection.ts';
import { fakeKube } from '../fake-kube.ts';

const client: IdentityClient = {
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityClient',
  metadata: { name: 'web', namespace: 'team', uid: 'uid-web' } as IdentityClient['metadata'],
  spec: {
    realmRef: { name: 'apps' },
    redirectUris: ['https://a/cb', 'https://b/cb'],
    webOrigins: ['https://a'],
  },
};

test('drift: reordered redirect URIs and Keycloak-only fields are no drift; a changed URI or flag is', () => {
  const desired = desiredClient(client);
  assert.is(desired.attributes?.[ownerAttribute], 'team/web');
  assert.not.ok(
    'realmforge.dev/managed-mappers' in (desired.attributes ?? {}),
    'no empty attribute: Keycloak would drop it',
  );
  const live = {
    ...desired,
    id: 'x',
    redirectUris: ['https://b/cb', 'https://a/cb'],
    nodeReRegistrationTimeout: -1,
    attributes: { ...desired.attributes, 'backchannel.logout.session.required': 'true' },
  };
  assert.equal(clientDrift(desired, live), []);
  assert.equal(clientDrift(desired, { ...live, redirectUris: ['https://evil/*'] }), ['redirectUris']);
  assert.equal(clientDrift(desired, { ...live, standardFlowEnabled: false }), ['standardFlowEnabled']);
});

/** An admin client whose client list answers `live`, recording every call. */
function adminWith(live: Record<string, unknown>[]) {
  const calls: string[] = [];
  const admin: AdminClient = {
    baseUrl: 'http://kc',
    async call<T>(_ns: string, method: string, path: string) {
      calls.push(`${method} ${path}`);
      return { status: 200, body: (method === 'GET' ? live : undefined) as T };
    },
  };
  return { admin, calls };
}

test('disabling: only a client of ours, written once; one disabled earlier is still reported as disabled', async () => {
  const ours = { id: 'u1', clientId: 'web', attributes: { [ownerAttribute]: 'team/web' } };
  const enabled = adminWith([{ ...ours, enabled: true }]);
  assert.equal(await disableClient(enabled.admin, 'apps', client), { disabled: true, wrote: true });
  assert.equal(enabled.calls, ['GET /apps/clients?clientId=web&max=2', 'PUT /apps/clients/u1']);
  const already = adminWith([{ ...ours, enabled: false }]);
  assert.equal(await disableClient(already.admin, 'apps', client), { disabled: true, wrote: false });
  assert.is(already.calls.length, 1, 'no write for a client already disabled');
  const foreign = adminWith([{ ...ours, attributes: { [ownerAttribute]: 'other/web' }, enabled: true }]);
  assert.equal(await disableClient(foreign.admin, 'apps', client), { disabled: false, wrote: false });
  assert.is(foreign.calls.length, 1, "another resource's client is never touched");
  assert.equal(await disableClient(adminWith([]).admin, 'apps', client), { disabled: false, wrote: false });
});

test('the credentials Secret has every key, an owner reference and labels; a public client has no secret', () => {
  const endpoints = realmEndpoints('https://id.example', 'https://id.example/realms/apps');
  const s = credentialsSecret(client, { clientId: 'web', clientSecret: 's3cret', realm: 'apps', endpoints });
  const data = s.data as Record<string, string>;
  const text = (k: string) => Buffer.from(data[k], 'base64').toString('utf8');
  assert.equal(Object.keys(data).sort(), [
    'authorization-endpoint',
    'client-id',
    'client-secret',
    'end-session-endpoint',
    'issuer',
    'jwks-uri',
    'keycloak-url',
    'realm',
    'token-endpoint',
    'userinfo-endpoint',
  ]);
  assert.is(text('token-endpoint'), 'https://id.example/realms/apps/protocol/openid-connect/token');
  assert.is(text('jwks-uri'), 'https://id.example/realms/apps/protocol/openid-connect/certs');
  assert.is(text('end-session-endpoint'), 'https://id.example/realms/apps/protocol/openid-connect/logout');
  assert.is(s.metadata.ownerReferences?.[0]?.uid, 'uid-web');
  assert.is(s.metadata.labels?.['realmforge.dev/realm'], 'apps');
  const pub = credentialsSecret(client, { clientId: 'web', realm: 'apps', endpoints });
  assert.is((pub.data as Record<string, string>)['client-secret'], undefined);
});

test('conflicts: a foreign Secret or one whose owner still exists is kept; an orphan of ours is replaced', async () => {
  const kube = fakeKube([
    {
      apiVersion: 'realmforge.dev/v1',
      kind: 'IdentityClient',
      metadata: { name: 'old', namespace: 'team', uid: 'uid-old' },
    },
  ]);
  const ours = (ownerName: string, ownerUid: string) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: 'web-credentials',
      namespace: 'team',
      labels: { 'app.kubernetes.io/managed-by': 'realmforge', 'realmforge.dev/client': ownerName },
      ownerReferences: [
        {
          apiVersion: 'realmforge.dev/v1',
          kind: 'IdentityClient',
          name: ownerName,
          uid: ownerUid,
          controller: true,
        },
      ],
    },
  });
  const deps = { kube } as never;
  assert.is(await secretConflict(deps, client, undefined), undefined);
  assert.is(await secretConflict(deps, client, ours('web', 'uid-web')), undefined, 'its own Secret');
  assert.is(await secretConflict(deps, client, ours('gone', 'uid-gone')), undefined, 'an orphan of ours');
  assert.match(
    String(await secretConflict(deps, client, ours('old', 'uid-old'))),
    /belongs to IdentityClient old/,
  );
  const foreign = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'web-credentials', namespace: 'team' },
  };
  assert.match(
    String(await secretConflict(deps, client, foreign)),
    /kubectl delete secret -n team web-credentials/,
  );
});

test.run();
