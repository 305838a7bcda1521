// A client is checked against what its Keycloak offers before anything is written: an unknown protocol mapper
// type is Failed/InvalidSpec naming the field (it used to be Ready with an inert mapper); the server info is read
// once per server, not per client; a Keycloak that will not show it to the operator is not a reason to refuse.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityClient } from '../../../../generated/types/crds/identityclient.ts';
import { manualClock } from '../../../../src/core/clock.ts';
import { RealmforgeError } from '../../../../src/core/errors.ts';
import { serverRefusals } from '../../../../src/operator/controllers/identity-client/server-checks.ts';
import type { AdminClient } from '../../../../src/operator/keycloak/admin-client.ts';
import { compactServerInfo, hasFeature, serverInfo } from '../../../../src/operator/keycloak/server-info.ts';
import { serverInfo as keycloak26 } from '../../keycloak/fake-keycloak-admin.ts';

const client = (protocolMapper: string): IdentityClient => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityClient',
  metadata: { name: 'web', namespace: 'team' },
  spec: { realmRef: { name: 'apps' }, protocolMappers: [{ name: 'aud', protocolMapper }] },
});

test('an unknown mapper type is refused naming the field and the server; a known one passes', () => {
  const info = compactServerInfo(keycloak26);
  assert.equal(serverRefusals(client('oidc-audience-mapper'), info), []);
  const [problem] = serverRefusals(client('no-such-mapper-type'), info);
  assert.match(
    problem ?? '',
    /^spec\.protocolMappers\[aud\]\.protocolMapper: Keycloak 26\.7\.3 has no openid-connect protocol mapper type "no-such-mapper-type"/,
  );
});

test('a client authenticator the server lacks is refused naming it; known ones pass', () => {
  const info = compactServerInfo({
    ...keycloak26,
    providers: { 'client-authenticator': { providers: { 'client-secret': {}, 'client-jwt': {} } } },
  });
  const withMethod = (method: 'client-jwt' | 'client-x509'): IdentityClient => ({
    ...client('oidc-audience-mapper'),
    spec: { realmRef: { name: 'apps' }, authentication: { method } },
  });
  assert.equal(serverRefusals(withMethod('client-jwt'), info), []);
  assert.equal(serverRefusals(withMethod('client-x509'), info), [
    'spec.authentication.method: Keycloak 26.7.3 has no client authenticator "client-x509" (its client-authenticator providers: client-jwt, client-secret)',
  ]);
});

test('features: the enabled ones are read in kebab case; an answer without the list is unknown', () => {
  const info = compactServerInfo({
    ...keycloak26,
    features: [{ name: 'CLIENT_SECRET_ROTATION', enabled: true }],
  });
  assert.ok(hasFeature(info, 'client-secret-rotation'));
  assert.not.ok(hasFeature(compactServerInfo(keycloak26), 'client-secret-rotation'), 'listed but disabled');
  assert.ok(hasFeature(compactServerInfo({ ...keycloak26, features: undefined }), 'client-secret-rotation'));
});

test('the server info is read once per server and kept; a refusal to show it checks nothing', async () => {
  const clock = manualClock();
  let reads = 0;
  const admin: AdminClient = {
    baseUrl: 'http://kc',
    async call<T>(_ns: string, _m: string, path: string) {
      reads++;
      assert.is(path, '../serverinfo');
      return { status: 200, body: keycloak26 as T };
    },
  };
  await serverInfo(admin, 'team', clock);
  await serverInfo(admin, 'other', clock);
  assert.is(reads, 1, 'one read for two namespaces');
  clock.advance(11 * 60_000);
  await serverInfo(admin, 'team', clock);
  assert.is(reads, 2, 'read again after ten minutes');
  const forbidden: AdminClient = {
    baseUrl: 'http://kc',
    async call() {
      throw new RealmforgeError('auth', 'HTTP 403');
    },
  };
  const info = await serverInfo(forbidden, 'team', clock);
  assert.is(info.known, false);
  assert.equal(serverRefusals(client('anything'), info), []);
});

test.run();
