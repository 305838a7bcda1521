// Federation against real peers, on one Keycloak line (the suite files operator-federation*.test.ts run it on 26
// and 25): a real OpenLDAP (slapd from Debian, seeded with people and groups) federated into a realm by the
// operator; an LDAP user gets a token with the password grant (and what view-realm reads holds no unkeyed hash of
// the bind password or the broker's secret), an LDAP group appears as a Keycloak group with its
// member, a requested sync reports its counts, a wrong bind password shows FederationUnavailable with LDAP's error
// and fixing the Secret recovers, a hand edit is reverted, and removal deletes the provider with its imported
// users. A second realm on the same Keycloak is an OIDC identity provider: its discovery document is read, and a
// person of that realm signs in through the broker with a browser's requests (login form, first broker login,
// code + PKCE) and becomes a user of the target realm with an attribute an IdP mapper imported from a claim; the
// broker verifies the upstream's tokens with the public key from a Secret (signingKeyRef). One IdentityServer.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, type TestEnv } from '../../../scripts/testenv/harness.ts';
import { getResource, identityServer, waitStatus } from '../../../scripts/testenv/identity-fixtures.ts';
import type { Kdc } from '../../../scripts/testenv/kdc.ts';
import { type Ldap, startLdap } from '../../../scripts/testenv/ldap.ts';
import { openRecord } from '../../../src/operator/keycloak/collections/record.ts';
import { loadEndpointMap } from '../../../src/operator/runtime/endpoint-map.ts';
import { brokerLogin, jwtClaims } from './broker-login.ts';
import { upstreamRealm } from './federation-upstream.ts';
import { kerberosServerParts, kerberosTests, startTestKdc } from './kerberos-federation.ts';
import { type KeycloakAdmin, keycloakAdmin } from './keycloak-admin.ts';
import { type OperatorSuite, operatorSuite } from './operator-suite.ts';
import { checkSecretHashes } from './secret-hashes.ts';

let suite: OperatorSuite;
let env: TestEnv;
let ldap: Ldap;
let kdc: Kdc | undefined;
let ns: string;
let keycloakUrl: string;
let admin: KeycloakAdmin;
/** The key id of the upstream realm's RS256 signing key (its tokens carry it). */
let upstreamKid: string;

const people = [
  { uid: 'ann', password: 'ann-pw', givenName: 'Ann', sn: 'Lee', mail: 'ann@corp.test' },
  { uid: 'bob', password: 'bob-pw', givenName: 'Bob', sn: 'Ray', mail: 'bob@corp.test' },
];
const bindSecret = (password: string) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'ldap-bind', namespace: ns },
  stringData: { password },
});
/** The suite's LDAP provider on `ldap` (its bind password in the Secret ldap-bind), with a group mapper; the import
 * corpus (import.test.ts) exports a realm with it too. */
export const ldapProvider = (ldap: Ldap) => ({
  name: 'corp-ldap',
  connectionUrl: ldap.url,
  bindDn: ldap.bindDn,
  bindCredentialRef: { name: 'ldap-bind', key: 'password' },
  usersDn: ldap.usersDn,
  mappers: [
    {
      name: 'groups',
      type: 'group-ldap-mapper',
      config: {
        'groups.dn': ldap.groupsDn,
        'group.name.ldap.attribute': 'cn',
        'group.object.classes': 'groupOfNames',
        'preserve.group.inheritance': 'false',
        'membership.ldap.attribute': 'member',
        'membership.attribute.type': 'DN',
        'membership.user.ldap.attribute': 'uid',
        mode: 'READ_ONLY',
        'user.roles.retrieve.strategy': 'LOAD_GROUPS_BY_MEMBER_ATTRIBUTE',
        'memberof.ldap.attribute': 'memberOf',
        'ignore.missing.groups': 'false',
        'drop.non.existing.groups.during.sync': 'false',
        'groups.path': '/',
      },
    },
  ],
});
const corp = (spec: Record<string, unknown>, annotations?: Record<string, string>) => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityRealm',
  metadata: { name: 'corp', namespace: ns, ...(annotations ? { annotations } : {}) },
  spec: { serverRef: { name: 'idp' }, clientAuthorizationGrants: [ns], ...spec },
});
const callback = 'http://127.0.0.1:9/callback';
const client = (name: string, realm: string, spec: Record<string, unknown>) => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityClient',
  metadata: { name, namespace: ns },
  spec: { realmRef: { name: realm }, ...spec },
});
const federated = () => ({
  userFederation: { ldap: [ldapProvider(ldap)] },
  identityProviders: [
    {
      alias: 'upstream',
      providerId: 'keycloak-oidc',
      config: {
        issuer: `${keycloakUrl}/realms/upstream`,
        authorizationUrl: `${keycloakUrl}/realms/upstream/protocol/openid-connect/auth`,
        tokenUrl: `${keycloakUrl}/realms/upstream/protocol/openid-connect/token`,
        clientId: 'corp-sso',
        clientAuthMethod: 'client_secret_post',
        defaultScope: 'openid profile email',
        publicKeySignatureVerifierKeyId: upstreamKid,
      },
      syncMode: 'IMPORT',
      // The upstream client's credentials Secret, written by the operator for the IdentityClient below.
      clientSecretRef: { name: 'corp-sso-credentials', key: 'client-secret' },
      // The upstream realm's public key, put in a Secret by the suite: the broker verifies ID tokens with it.
      signingKeyRef: { name: 'upstream-signing', key: 'public-key' },
      mappers: [
        {
          name: 'department',
          type: 'oidc-user-attribute-idp-mapper',
          config: { claim: 'department', 'user.attribute': 'department' },
        },
      ],
    },
  ],
});

const status = async () => (await getResource(env, 'identityrealms', ns, 'corp')).status ?? {};
const ldapComponent = async () => {
  const realm = await admin('GET', '/corp');
  const list = await admin(
    'GET',
    `/corp/components?parent=${realm.id}&type=org.keycloak.storage.UserStorageProvider`,
  );
  return (list as { name: string }[]).find((c) => c.name === 'corp-ldap') as any;
};

const ready = (plural: string, name: string, ms: number) =>
  waitStatus(env, plural, ns, name, ms, (s) => s.phase === 'Ready', 'to be Ready');

/** The environment, the operator, the directory, the server on Keycloak `version`, and the upstream realm. */
async function setUp(version: string, prefix: string, kerberos: boolean) {
  suite = await operatorSuite(prefix);
  ({ env, ns } = suite);
  ldap = await startLdap(mkdtempSync(join(tmpdir(), 'realmforge-ldap-')), people, { engineers: ['ann'] });
  suite.onClose(() => ldap.stop());
  const server = identityServer(ns, 'idp', 'pg');
  // The KDC's keytab and krb5.conf are on the server from the start: declaring them later would roll Keycloak.
  kdc = kerberos ? await startTestKdc() : undefined;
  if (kdc) suite.onClose(() => kdc?.stop());
  const parts = kdc && kerberosServerParts(ns, kdc);
  for (const object of parts?.objects ?? []) await env.apply(object as never);
  const spec = { ...server.spec, image: { tag: version }, ...(parts ? { kerberos: parts.spec } : {}) };
  await env.apply({ ...server, spec } as never);
  await waitStatus(env, 'identityservers', ns, 'idp', 400_000, (s) => s.phase === 'Ready', 'to be Ready');
  keycloakUrl = loadEndpointMap(env.state.endpointMapFile)
    .resolve(`http://idp.${ns}.svc:8080`)
    .replace(/\/$/, '');
  admin = keycloakAdmin(env, ns, keycloakUrl);
  await env.apply(bindSecret(ldap.bindPassword) as never);
  upstreamKid = await upstreamRealm(env, ns, keycloakUrl, admin);
}

/** Registers the suite on Keycloak `version` (an image tag); `prefix` names its namespace; with `kerberos`, a
 * KDC and the Kerberos tests (kerberos-federation.ts) too. */
export function federationSuite(version: string, prefix: string, options: { kerberos?: boolean } = {}) {
  test.before(async () => {
    // uvu does not print a hook's error: say what failed before rethrowing it.
    await setUp(version, prefix, options.kerberos ?? false).catch((error: Error) => {
      console.error(`the federation suite could not set up: ${error.stack ?? error}`);
      throw error;
    });
  });
  test.after(() => suite?.close());

  test('an LDAP user gets a token; its LDAP group is a Keycloak group; the broker reads its discovery', async () => {
    await env.apply(corp(federated()) as never);
    const ready = (
      await waitStatus(env, 'identityrealms', ns, 'corp', 120_000, (s) => s.phase === 'Ready', 'to be Ready')
    ).status;
    const pick = (items: Record<string, unknown>[], keys: string[]) =>
      items.map((i) => Object.fromEntries(keys.map((k) => [k, i[k]])));
    assert.equal(pick(ready.federation.ldap, ['name', 'connected']), [
      { name: 'corp-ldap', connected: true },
    ]);
    assert.equal(pick(ready.federation.identityProviders, ['alias', 'reachable']), [
      { alias: 'upstream', reachable: true },
    ]);
    const token = await fetch(`${keycloakUrl}/realms/corp/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'password',
        client_id: 'admin-cli',
        username: 'ann',
        password: 'ann-pw',
      }),
    });
    assert.is(token.status, 200, await token.clone().text());
    // What view-realm shows holds no unkeyed hash of the bind password or of the broker's client secret.
    const realm = await admin('GET', '/corp');
    const broker = await admin('GET', '/corp/identity-provider/instances/upstream');
    const readable = [realm, await ldapComponent(), broker];
    const server = { namespace: ns, name: 'idp' };
    await checkSecretHashes(env, server, readable, {
      password: ldap.bindPassword,
      salt: 'corp/ldap/corp-ldap',
      recorded: openRecord(realm).attributes?.['realmforge.dev/ldap-bind-hash.corp-ldap'],
    });
    const credentials = await env.core.readNamespacedSecret({ namespace: ns, name: 'corp-sso-credentials' });
    await checkSecretHashes(env, server, readable, {
      password: Buffer.from(credentials.data?.['client-secret'] ?? '', 'base64').toString('utf8'),
      salt: 'corp/upstream',
      recorded: broker.config?.['realmforge.dev/secret-hash'],
    });
    const [user] = await admin('GET', '/corp/users?username=ann&exact=true');
    assert.ok(user.federationLink, 'ann is an LDAP user');
    const groups = (await admin('GET', `/corp/users/${user.id}/groups`)) as { name: string }[];
    assert.ok(
      groups.some((g) => g.name === 'engineers'),
      JSON.stringify(groups),
    );
    const [engineers] = (await admin('GET', '/corp/groups?search=engineers')) as { id: string }[];
    const members = (await admin('GET', `/corp/groups/${engineers?.id}/members`)) as { username: string }[];
    assert.equal(
      members.map((m) => m.username),
      ['ann'],
    );
  });

  test(`Keycloak ${version}: a person of the upstream realm signs in through the broker and gets a token`, async () => {
    await env.apply(
      client('corp-app', 'corp', { type: 'public', pkce: 'S256', redirectUris: [callback] }) as never,
    );
    await ready('identityclients', 'corp-app', 120_000);
    // The imported attribute is not in the realm's user profile: let Keycloak keep unmanaged attributes (the
    // operator does not manage the user profile, so it leaves this alone).
    const profile = await admin('GET', '/corp/users/profile');
    await admin('PUT', '/corp/users/profile', { ...profile, unmanagedAttributePolicy: 'ENABLED' });
    const started = Date.now();
    const login = await brokerLogin({
      keycloakUrl,
      realm: 'corp',
      clientId: 'corp-app',
      redirectUri: callback,
      idpAlias: 'upstream',
      username: 'carol',
      password: 'carol-pw',
    });
    console.log(`   broker login in ${Date.now() - started} ms through ${login.pages.length} pages`);
    assert.is(login.status, 200, JSON.stringify(login.token));
    const claims = jwtClaims(String(login.token.access_token));
    assert.is(claims.iss, `${keycloakUrl}/realms/corp`);
    assert.is(claims.preferred_username, 'carol');
    const [user] = await admin('GET', '/corp/users?username=carol&exact=true');
    assert.ok(user, 'first broker login created carol in corp');
    assert.not.ok(user.federationLink, 'a local user, not an LDAP one');
    assert.equal(user.attributes?.department, ['research'], JSON.stringify(user));
    const links = (await admin('GET', `/corp/users/${user.id}/federated-identity`)) as Record<
      string,
      string
    >[];
    assert.equal(
      links.map((l) => [l.identityProvider, l.userName]),
      [['upstream', 'carol']],
    );
  });

  test('a requested full sync imports the directory and reports its counts on status', async () => {
    await env.apply(corp(federated(), { 'realmforge.dev/federation-sync': 'full@1' }) as never);
    const s = (
      await waitStatus(
        env,
        'identityrealms',
        ns,
        'corp',
        60_000,
        (x) => x.federation?.ldap?.[0]?.lastSync?.request === 'full@1',
        'to report the sync',
      )
    ).status;
    const last = s.federation.ldap[0].lastSync;
    assert.is(last.mode, 'full');
    assert.not.ok(last.error, last.error);
    assert.is(last.added + last.updated, 2, JSON.stringify(last));
    assert.is((await admin('GET', '/corp/users?username=bob&exact=true')).length, 1);
  });

  test('a wrong bind password is FederationUnavailable with LDAP error; the fixed Secret recovers', async () => {
    await env.apply(bindSecret('wrong-password') as never);
    const broken = (
      await waitStatus(
        env,
        'identityrealms',
        ns,
        'corp',
        60_000,
        (s) => s.reason === 'FederationUnavailable',
        'to be FederationUnavailable',
      )
    ).status;
    assert.match(broken.message, /LDAP provider corp-ldap/);
    console.log(`   FederationUnavailable message: ${broken.message}`);
    await env.apply(bindSecret(ldap.bindPassword) as never);
    await waitStatus(env, 'identityrealms', ns, 'corp', 30_000, (s) => s.phase === 'Ready', 'to recover');
  });

  test('a provider edited by hand is reverted; removed from the spec it is deleted with its users', async () => {
    const component = await ldapComponent();
    await admin('PUT', `/corp/components/${component.id}`, {
      ...component,
      config: { ...component.config, usersDn: ['ou=nowhere,dc=x'] },
    });
    await eventually('the usersDn to be restored', 30_000, async () =>
      (await ldapComponent()).config.usersDn[0] === ldap.usersDn ? true : undefined,
    );
    await env.apply(corp({}) as never);
    await eventually('the provider, its users and the identity provider to be gone', 30_000, async () => {
      const gone =
        !(await ldapComponent()) &&
        (await admin('GET', '/corp/users?username=ann&exact=true')).length === 0 &&
        (await admin('GET', '/corp/identity-provider/instances')).length === 0;
      return gone ? true : undefined;
    });
    assert.is((await status()).federation, undefined);
  });
  if (options.kerberos)
    kerberosTests(
      () => ({ env, ns, keycloakUrl, admin }),
      () => kdc as Kdc,
    );
}
