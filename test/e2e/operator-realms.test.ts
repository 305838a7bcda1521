// Realms and clients kept in the real Keycloak (the environment's own, as an existing server: the subject is realms
// and clients, not the server) by the operator under its own ServiceAccount: Ready with kubectl
// wait, a credentials Secret that logs in, drift reverted within one interval, zero writes in steady state,
// namespace grants enforced (never created, created on grant, disabled on removal), conflicts and missing access
// reported on status, and deletion policies honoured.

import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, type TestEnv } from '../../scripts/testenv/harness.ts';
import { getResource, kubectlWait, waitStatus } from '../../scripts/testenv/identity-fixtures.ts';
import type { OperatorProcess } from '../../scripts/testenv/operator-process.ts';
import { openRecord } from '../../src/operator/keycloak/collections/record.ts';
import { loadEndpointMap } from '../../src/operator/runtime/endpoint-map.ts';
import type { KeycloakAdmin } from './helpers/keycloak-admin.ts';
import { type OperatorSuite, operatorSuite } from './helpers/operator-suite.ts';
import { resyncs } from './helpers/resyncs.ts';

let suite: OperatorSuite;
let env: TestEnv;
let operator: OperatorProcess;
let ns: string; // server and realms
let team: string; // granted clients
let other: string; // not granted at first
let noAccess: string; // granted, but no RoleBinding for Secrets
let kc: KeycloakAdmin;

const realm = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityRealm',
  metadata: { name, namespace: ns },
  spec: { serverRef: { name: 'idp' }, ...spec },
});
const client = (namespace: string, name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityClient',
  metadata: { name, namespace },
  spec: { realmRef: { name: 'apps', namespace: ns }, ...spec },
});
/** The realm `apps` as the suite keeps it, granting `grants`. */
const applyApps = (grants: string[]) =>
  env.apply(
    realm('apps', {
      displayName: 'Apps',
      clientAuthorizationGrants: grants,
      roles: [{ name: 'reader' }],
      userProfile: { attributes: [badge] },
    }) as never,
  );
/** A user profile attribute the realm declares (its drift is reverted like the realm's own fields). */
const badge = {
  name: 'badge',
  validations: { length: { max: 4 } },
  permissions: { view: ['admin'], edit: ['admin'] },
};
const webSpec = {
  redirectUris: ['https://web.example.test/callback', 'https://web.example.test/silent'],
  serviceAccount: { enabled: true },
  protocolMappers: [
    {
      name: 'audience',
      protocolMapper: 'oidc-audience-mapper',
      config: { 'included.client.audience': 'web', 'access.token.claim': 'true' },
    },
  ],
};

const admin = (method: string, path: string, body?: unknown) => kc.call(method, path, body);

const keycloakClient = async (clientId: string) =>
  (await admin('GET', `/apps/clients?clientId=${clientId}`))?.[0];
const writes = () => operator.writes();

test.before(async () => {
  suite = await operatorSuite('op-realms', { server: 'harness' });
  ({ env, ns, operator } = suite);
  team = await suite.namespace('team');
  other = await suite.namespace('other');
  noAccess = await suite.namespace('locked', { secrets: false });
  kc = suite.keycloak;
});
test.after(() => suite?.close());

test('a realm and a client become Ready, and the credentials Secret logs in with client_credentials', async () => {
  await applyApps([team, noAccess]);
  assert.match(await kubectlWait(env, 'identityrealm/apps', ns, 120), /condition met/);
  const r = await getResource(env, 'identityrealms', ns, 'apps');
  assert.ok(r.status.realmId);
  assert.equal(r.status.authorizedNamespaces, [team, noAccess]);
  assert.is((await admin('GET', '/apps')).displayName, 'Apps');
  await env.apply(client(team, 'web', webSpec) as never);
  assert.match(await kubectlWait(env, 'identityclient/web', team, 120), /condition met/);
  const secret = await env.core.readNamespacedSecret({ namespace: team, name: 'web-credentials' });
  const value = (k: string) => Buffer.from(secret.data?.[k] ?? '', 'base64').toString('utf8');
  for (const key of [
    'client-id',
    'client-secret',
    'realm',
    'issuer',
    'token-endpoint',
    'authorization-endpoint',
    'userinfo-endpoint',
    'jwks-uri',
    'keycloak-url',
  ]) {
    assert.ok(value(key), `the Secret has ${key}`);
  }
  assert.is(secret.metadata?.ownerReferences?.[0]?.kind, 'IdentityClient');
  assert.is(secret.metadata?.labels?.['realmforge.dev/client'], 'web');
  const tokenUrl = loadEndpointMap(env.state.endpointMapFile).resolve(value('token-endpoint'));
  const login = await fetch(tokenUrl, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: value('client-id'),
      client_secret: value('client-secret'),
    }),
  });
  assert.is(login.status, 200, 'a real login with the Secret works');
  const token = (await login.json()) as { access_token?: string };
  assert.ok(token.access_token);
  const claims = JSON.parse(Buffer.from(token.access_token.split('.')[1], 'base64url').toString('utf8'));
  assert.ok([claims.aud].flat().includes('web'), 'the audience mapper is applied');
});

test('steady state: resyncs read but never write to Keycloak', async () => {
  // Settled once each realm and client resynced after the creation above (its last passes may still write).
  await Promise.all(['IdentityRealm', 'IdentityClient'].map((kind) => resyncs(env, operator, kind, 1)));
  const before = await writes();
  const gets = await operator.counter('realmforge_keycloak_api_requests_total', { method: 'GET' });
  await Promise.all(['IdentityRealm', 'IdentityClient'].map((kind) => resyncs(env, operator, kind, 2)));
  assert.ok(
    (await operator.counter('realmforge_keycloak_api_requests_total', { method: 'GET' })) > gets,
    'resyncs happened',
  );
  assert.is(await writes(), before, 'no POST, PUT or DELETE (tokens are cached for their lifetime)');
});

test('manual changes in Keycloak are reverted within a drift interval', async () => {
  const rep = await admin('GET', '/apps');
  await admin('PUT', '/apps', { ...rep, displayName: 'Changed by hand' });
  const web = await keycloakClient('web');
  await admin('PUT', `/apps/clients/${web.id}`, { ...web, redirectUris: ['https://evil.example.test/*'] });
  const mapper = web.protocolMappers.find((m: { name: string }) => m.name === 'audience');
  await admin('DELETE', `/apps/clients/${web.id}/protocol-mappers/models/${mapper.id}`);
  const profile = await admin('GET', '/apps/users/profile');
  const badgeOf = (p: { attributes: { name: string; validations?: unknown }[] }) =>
    p.attributes.find((a) => a.name === 'badge');
  await admin('PUT', '/apps/users/profile', {
    ...profile,
    attributes: profile.attributes.map((a: { name: string }) =>
      a.name === 'badge' ? { ...a, validations: {} } : a,
    ),
  });
  assert.equal(badgeOf(await admin('GET', '/apps/users/profile'))?.validations, {}, 'changed by hand');
  await eventually(
    'the realm displayName, redirect URIs, mapper and profile to be restored',
    20_000,
    async () => {
      const r = await admin('GET', '/apps');
      const c = await keycloakClient('web');
      const p = await admin('GET', '/apps/users/profile');
      const ok =
        JSON.stringify(badgeOf(p)?.validations) === JSON.stringify(badge.validations) &&
        r.displayName === 'Apps' &&
        [...c.redirectUris].sort().join() === [...webSpec.redirectUris].sort().join() &&
        c.protocolMappers?.some((m: { name: string }) => m.name === 'audience');
      return ok ? true : undefined;
    },
  );
});

test('a client in an ungranted namespace never reaches Keycloak; granting creates it; revoking refuses it again', async () => {
  await env.apply(client(other, 'stranger') as never);
  const pending = await waitStatus(
    env,
    'identityclients',
    other,
    'stranger',
    30_000,
    (s) => s.reason === 'NamespaceNotAuthorized',
    'to be refused',
  );
  assert.is(pending.status.phase, 'Pending');
  assert.match(
    pending.status.message,
    new RegExp(`namespace ${other} is not in spec.clientAuthorizationGrants of IdentityRealm ${ns}/apps`),
  );
  assert.is(await keycloakClient('stranger'), undefined);
  await applyApps([team, noAccess, other]);
  await waitStatus(
    env,
    'identityclients',
    other,
    'stranger',
    60_000,
    (s) => s.phase === 'Ready',
    'to be Ready once granted',
  );
  assert.is((await keycloakClient('stranger')).enabled, true);
  await applyApps([team, noAccess]);
  await waitStatus(
    env,
    'identityclients',
    other,
    'stranger',
    60_000,
    (s) => s.reason === 'NamespaceNotAuthorized',
    'to be refused again',
  );
});

test('removing the grant disables the existing client in Keycloak; granting again enables it', async () => {
  await waitStatus(
    env,
    'identityclients',
    other,
    'stranger',
    60_000,
    (s) => /disabled/.test(s.message),
    'to say it is disabled',
  );
  assert.is((await keycloakClient('stranger')).enabled, false);
  await applyApps([team, noAccess, other]);
  await waitStatus(
    env,
    'identityclients',
    other,
    'stranger',
    60_000,
    (s) => s.phase === 'Ready',
    'to be Ready again',
  );
  assert.is((await keycloakClient('stranger')).enabled, true, 'granting again enables the client');
});

test('a client ID taken by a client the operator does not own is a ClientIdConflict, never adopted', async () => {
  await env.apply(client(team, 'taken', { clientId: 'account' }) as never);
  const failed = await waitStatus(
    env,
    'identityclients',
    team,
    'taken',
    30_000,
    (s) => s.reason === 'ClientIdConflict',
    'to conflict',
  );
  assert.is(failed.status.phase, 'Failed');
  assert.match(failed.status.message, /client ID account is already taken in realm apps/);
  const account = await keycloakClient('account');
  assert.is(
    openRecord(account).attributes?.['realmforge.dev/owner'],
    undefined,
    'the existing client was not touched',
  );
});

test('without the namespace-access RoleBinding the status says SecretAccessDenied and nothing is created', async () => {
  await env.apply(client(noAccess, 'locked') as never);
  const s = await waitStatus(
    env,
    'identityclients',
    noAccess,
    'locked',
    30_000,
    (st) => st.reason === 'SecretAccessDenied',
    'to report the missing access',
  );
  assert.match(s.status.message, /keycloak-operator-namespace-access/);
  assert.is(await keycloakClient('locked'), undefined);
  const errors = await operator.counter('realmforge_reconcile_errors_total', { kind: 'IdentityClient' });
  await new Promise((r) => setTimeout(r, 3000));
  assert.ok(
    (await operator.counter('realmforge_reconcile_errors_total', { kind: 'IdentityClient' })) - errors <= 1,
    'no tight retry loop',
  );
});

test('a foreign Secret in the way is a SecretConflict; deleting it recovers on the next resync', async () => {
  await env.core.createNamespacedSecret({
    namespace: team,
    body: { metadata: { name: 'api-credentials' }, stringData: { mine: 'yes' } },
  });
  await env.apply(client(team, 'api', { type: 'bearer-only', standardFlow: false }) as never);
  const s = await waitStatus(
    env,
    'identityclients',
    team,
    'api',
    30_000,
    (st) => st.reason === 'SecretConflict',
    'to report the conflict',
  );
  assert.match(s.status.message, new RegExp(`kubectl delete secret -n ${team} api-credentials`));
  await env.core.deleteNamespacedSecret({ namespace: team, name: 'api-credentials' });
  await waitStatus(env, 'identityclients', team, 'api', 30_000, (st) => st.phase === 'Ready', 'to recover');
  const secret = await env.core.readNamespacedSecret({ namespace: team, name: 'api-credentials' });
  assert.is(secret.data?.['client-secret'], undefined, 'a bearer-only client has no secret');
});

test('a protocol mapper type this Keycloak does not have is Failed/InvalidSpec, and nothing is created', async () => {
  await env.apply(
    client(team, 'odd', { protocolMappers: [{ name: 'x', protocolMapper: 'no-such-mapper-type' }] }) as never,
  );
  const s = await waitStatus(
    env,
    'identityclients',
    team,
    'odd',
    30_000,
    (st) => st.reason === 'InvalidSpec',
    'to be refused',
  );
  assert.is(s.status.phase, 'Failed');
  assert.match(
    s.status.message,
    /spec\.protocolMappers\[x\]\.protocolMapper: Keycloak 2[56]\.[0-9.]+ has no openid-connect protocol mapper type "no-such-mapper-type"/,
  );
  assert.is(await keycloakClient('odd'), undefined);
});

test('a client-jwt client gets a token with a signed assertion (key from a JWKS URL) and is refused with a secret', async () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' };
  const jwks = createServer((_req, res) => res.end(JSON.stringify({ keys: [jwk] })));
  await new Promise<void>((r) => jwks.listen(0, '127.0.0.1', r));
  try {
    const jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks`;
    await env.apply(
      client(team, 'signed', {
        serviceAccount: { enabled: true },
        authentication: { method: 'client-jwt', jwksUrl },
      }) as never,
    );
    await waitStatus(
      env,
      'identityclients',
      team,
      'signed',
      60_000,
      (s) => s.phase === 'Ready',
      'to be Ready',
    );
    const tokenUrl = `${kc.url()}/realms/apps/protocol/openid-connect/token`;
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const unsigned = `${b64({ alg: 'RS256', kid: 'k1', typ: 'JWT' })}.${b64({ iss: 'signed', sub: 'signed', aud: tokenUrl, jti: randomUUID(), iat: now, exp: now + 60 })}`;
    const assertion = `${unsigned}.${sign('RSA-SHA256', Buffer.from(unsigned), privateKey).toString('base64url')}`;
    const withJwt = await fetch(tokenUrl, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: assertion,
      }),
    });
    assert.is(withJwt.status, 200, await withJwt.clone().text());
    assert.ok(((await withJwt.json()) as { access_token?: string }).access_token);
    const live = await keycloakClient('signed');
    assert.is(live.clientAuthenticatorType, 'client-jwt');
    const withSecret = await fetch(tokenUrl, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'signed',
        client_secret: live.secret ?? 'x',
      }),
    });
    const refused = (await withSecret.json()) as { error?: string; access_token?: string };
    assert.ok([400, 401].includes(withSecret.status), `a shared secret is refused (${withSecret.status})`);
    assert.is(refused.access_token, undefined);
    assert.ok(refused.error, 'with an OAuth error');
  } finally {
    jwks.close();
  }
});

test('what specs stop declaring is taken back within a drift interval; a role made by hand is untouched', async () => {
  const pruned = (spec: Record<string, unknown>) =>
    realm('pruned', { clientAuthorizationGrants: [team], ...spec }) as never;
  const pk = (spec: Record<string, unknown>) =>
    client(team, 'pk', { realmRef: { name: 'pruned', namespace: ns }, ...spec }) as never;
  await env.apply(
    pruned({
      tokens: { accessTokenLifespan: 120 },
      roles: [{ name: 'keep' }, { name: 'drop' }],
      groups: [{ name: 'staff', realmRoles: ['keep', 'drop'] }],
    }),
  );
  await waitStatus(env, 'identityrealms', ns, 'pruned', 60_000, (s) => s.phase === 'Ready', 'to be Ready');
  await env.apply(
    pk({
      pkce: 'S256',
      protocolMappers: [
        { name: 'aud', protocolMapper: 'oidc-audience-mapper', config: { 'included.client.audience': 'pk' } },
      ],
    }),
  );
  await waitStatus(env, 'identityclients', team, 'pk', 60_000, (s) => s.phase === 'Ready', 'to be Ready');
  assert.is((await admin('GET', '/pruned')).accessTokenLifespan, 120);
  await admin('POST', '/pruned/roles', { name: 'by-hand' });
  await env.apply(pruned({ roles: [{ name: 'keep' }], groups: [{ name: 'staff', realmRoles: ['keep'] }] }));
  await env.apply(pk({}));
  await eventually('the removed settings and items to be taken back', 30_000, async () => {
    const r = await admin('GET', '/pruned');
    const roles = ((await admin('GET', '/pruned/roles')) as { name: string }[]).map((x) => x.name);
    const staff = ((await admin('GET', '/pruned/groups?briefRepresentation=false')) as any[]).find(
      (g) => g.name === 'staff',
    );
    const c = (await admin('GET', '/pruned/clients?clientId=pk'))?.[0];
    const done =
      r.accessTokenLifespan === 300 &&
      !roles.includes('drop') &&
      staff?.realmRoles?.join() === 'keep' &&
      !c?.attributes?.['pkce.code.challenge.method'] &&
      !c?.protocolMappers?.some((m: { name: string }) => m.name === 'aud');
    return done ? { roles } : undefined;
  }).then(({ roles }) => {
    assert.ok(roles.includes('by-hand'), 'the hand-made role is untouched');
    assert.ok(roles.includes('keep') && roles.includes('offline_access'));
  });
});

test('deletionPolicy Delete removes the realm from Keycloak; Retain leaves it', async () => {
  await env.apply(realm('gone', {}) as never);
  await env.apply(realm('kept', { deletionPolicy: 'Retain' }) as never);
  await waitStatus(env, 'identityrealms', ns, 'gone', 60_000, (s) => s.phase === 'Ready', 'to be Ready');
  await waitStatus(env, 'identityrealms', ns, 'kept', 60_000, (s) => s.phase === 'Ready', 'to be Ready');
  for (const name of ['gone', 'kept'])
    await env.request('DELETE', `/apis/realmforge.dev/v1/namespaces/${ns}/identityrealms/${name}`);
  await eventually('both resources to be gone', 30_000, async () =>
    !(await getResource(env, 'identityrealms', ns, 'gone')) &&
    !(await getResource(env, 'identityrealms', ns, 'kept'))
      ? true
      : undefined,
  );
  assert.is(await admin('GET', '/gone'), undefined, 'Delete removed the realm');
  assert.ok(await admin('GET', '/kept'), 'Retain kept the realm');
});

test.run();
