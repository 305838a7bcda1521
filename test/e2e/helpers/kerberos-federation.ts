// Kerberos federation against a real MIT KDC, in the federation suite's environment (its IdentityServer declares
// the keytab Secret and the krb5.conf ConfigMap from the start, so no extra rollout): a realm's Kerberos provider
// reads back equal with the keytab path the operator resolved, a Kerberos user gets a token with the password
// grant (Keycloak checks the password with the KDC), the same user signs in through the browser flow with SPNEGO
// (curl --negotiate with a ticket from kinit: Keycloak reads the mounted keytab to accept it), a hand edit is
// reverted and removal deletes the provider.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, type TestEnv } from '../../../scripts/testenv/harness.ts';
import { waitStatus } from '../../../scripts/testenv/identity-fixtures.ts';
import { type Kdc, kinit, startKdc } from '../../../scripts/testenv/kdc.ts';
import { keytabMountPath } from '../../../src/operator/compile/kerberos-keytabs.ts';
import type { KeycloakAdmin } from './keycloak-admin.ts';

/** What the Kerberos tests use of the suite's environment (read when a test runs). */
export type KerberosContext = () => { env: TestEnv; ns: string; keycloakUrl: string; admin: KeycloakAdmin };

const realm = 'REALMFORGE.TEST';
const users = { kate: 'kate-pw' };

/** Starts the KDC (HTTP/127.0.0.1: the host name the tests reach Keycloak by). */
export const startTestKdc = () =>
  startKdc(mkdtempSync(join(tmpdir(), 'realmforge-kdc-')), realm, users, '127.0.0.1');

/** The keytab Secret and krb5.conf ConfigMap, and the server's spec.kerberos that mounts them. */
export function kerberosServerParts(ns: string, kdc: Kdc) {
  return {
    objects: [
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'sso-keytab', namespace: ns },
        data: { keytab: kdc.keytab.toString('base64') },
      },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'krb5', namespace: ns },
        data: { 'krb5.conf': kdc.krb5Conf },
      },
    ],
    spec: {
      keytabs: [{ name: 'sso', secretRef: { name: 'sso-keytab', key: 'keytab' } }],
      krb5ConfigMapRef: { name: 'krb5', key: 'krb5.conf' },
    },
  };
}

/** The suite's Kerberos provider (keytab sso, the server's); the import corpus (import.test.ts) exports it too. */
export const kerberosProvider = (servicePrincipal: string) => ({
  name: 'corp-kerberos',
  kerberosRealm: realm,
  serverPrincipal: servicePrincipal,
  keytab: 'sso',
  allowPasswordAuthentication: true,
});

/** Registers the Kerberos tests. */
export function kerberosTests(ctx: KerberosContext, kdc: () => Kdc) {
  const resource = (spec: Record<string, unknown>) => ({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityRealm',
    metadata: { name: 'krb', namespace: ctx().ns },
    spec: { serverRef: { name: 'idp' }, ...spec },
  });
  const component = async () => {
    const { admin } = ctx();
    const live = await admin('GET', '/krb');
    const list = await admin(
      'GET',
      `/krb/components?parent=${live.id}&type=org.keycloak.storage.UserStorageProvider`,
    );
    return (list as { name: string }[]).find((c) => c.name === 'corp-kerberos') as any;
  };
  const passwordGrant = (password: string) =>
    fetch(`${ctx().keycloakUrl}/realms/krb/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'password',
        client_id: 'admin-cli',
        username: 'kate',
        password,
      }),
    });

  test('Kerberos: read back equal; a KDC user gets a token by password and signs in with SPNEGO', async () => {
    const { env, ns, keycloakUrl } = ctx();
    const started = Date.now();
    // A Kerberos user has no first and last name: without this, Keycloak's profile check would stop the login.
    const requiredActions = [{ alias: 'VERIFY_PROFILE', enabled: false }];
    await env.apply(
      resource({
        requiredActions,
        userFederation: { kerberos: [kerberosProvider(kdc().servicePrincipal)] },
      }) as never,
    );
    await waitStatus(env, 'identityrealms', ns, 'krb', 120_000, (s) => s.phase === 'Ready', 'to be Ready');
    const live = await component();
    assert.is(live.providerId, 'kerberos');
    assert.equal(live.config, {
      enabled: ['true'],
      priority: ['0'],
      kerberosRealm: [realm],
      serverPrincipal: [kdc().servicePrincipal],
      keyTab: [keytabMountPath('sso')],
      debug: ['false'],
      allowPasswordAuthentication: ['true'],
      editMode: ['READ_ONLY'],
      updateProfileFirstLogin: ['false'],
      cachePolicy: ['DEFAULT'],
    });
    // A wrong password is refused by the KDC (Keycloak answers invalid_grant, as for any bad credentials).
    const wrong = await passwordGrant('not-kates');
    assert.is(((await wrong.json()) as { error?: string }).error, 'invalid_grant');
    const token = await passwordGrant(users.kate);
    assert.is(token.status, 200, await token.clone().text());
    // SPNEGO through the browser flow: a ticket for kate, then the authorization endpoint answers 401 Negotiate
    // and curl answers with the ticket; Keycloak accepts it with the keytab and redirects with a code.
    const dir = mkdtempSync(join(tmpdir(), 'realmforge-spnego-'));
    const cache = join(dir, 'cc');
    await kinit(kdc().krb5ConfPath, cache, `kate@${realm}`, kdc().usersKeytabPath);
    const redirect = `${keycloakUrl}/realms/krb/account/`;
    const auth = `${keycloakUrl}/realms/krb/protocol/openid-connect/auth?${new URLSearchParams({
      client_id: 'account-console',
      response_type: 'code',
      scope: 'openid',
      redirect_uri: redirect,
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    })}`;
    const { stdout } = await promisify(execFile)(
      'curl',
      [
        '-sS',
        '--negotiate',
        '-u',
        ':',
        '-c',
        join(dir, 'jar'),
        '-o',
        '/dev/null',
        '-w',
        '%{http_code} %{redirect_url}',
        auth,
      ],
      { env: { ...process.env, KRB5_CONFIG: kdc().krb5ConfPath, KRB5CCNAME: `FILE:${cache}` } },
    );
    const [code, location = ''] = stdout.split(' ');
    assert.is(code, '302', stdout);
    assert.ok(location.startsWith(redirect) && location.includes('code='), location);
    console.log(`   Kerberos realm Ready, password grant and SPNEGO login in ${Date.now() - started} ms`);
  });

  test('Kerberos: a hand edit is reverted; removed from the spec the provider is deleted', async () => {
    const { env, admin } = ctx();
    const started = Date.now();
    const live = await component();
    await admin('PUT', `/krb/components/${live.id}`, {
      ...live,
      config: { ...live.config, serverPrincipal: ['HTTP/elsewhere@X'] },
    });
    await eventually('the server principal to be restored', 30_000, async () =>
      (await component()).config.serverPrincipal[0] === kdc().servicePrincipal ? true : undefined,
    );
    await env.apply(resource({}) as never);
    await eventually('the Kerberos provider to be gone', 30_000, async () =>
      (await component()) ? undefined : true,
    );
    console.log(`   Kerberos revert and removal in ${Date.now() - started} ms`);
  });
}
