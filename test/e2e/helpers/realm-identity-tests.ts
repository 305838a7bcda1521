// The operator's identity per realm as issue 36 promises it on every supported Keycloak line, registered on a suite
// whose server `idp` is Ready (operator-realm-identity on 26, operator-keycloak-25 on 25): the master identity (a
// client on 26, an account on 25, each holding create-realm) is refused by Keycloak on a realm it did not create; a
// realm identity deleted by hand is restored; adoption names the missing grant, then works once it is given; a server
// of an earlier release (master identity holding admin, a realm without identity) is reduced when the operator
// starts, and its realms still reconcile with zero writes; a master identity deleted by hand is made again and gets
// its realms back; the bootstrap admin Secret deleted changes nothing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, type TestEnv } from '../../../scripts/testenv/harness.ts';
import { waitStatus } from '../../../scripts/testenv/identity-fixtures.ts';
import type { OperatorProcess } from '../../../scripts/testenv/operator-process.ts';
import {
  realmIdentitySecret,
  realmIdentityTokenLifespanS,
} from '../../../src/operator/keycloak/realm-identity.ts';
import { giveNamedGrant, type KeycloakAdmin, keycloakAdmin, keycloakAdminApi } from './keycloak-admin.ts';
import type { OperatorSuite } from './operator-suite.ts';

const text = (data: Record<string, string> | undefined, key: string) =>
  Buffer.from(data?.[key] ?? '', 'base64').toString('utf8');

/** What the tests need from the suite, read when they run. */
export type IdentityContext = { suite: OperatorSuite };

/** The shared helpers: a realm resource, tokens, the master identity as the operator keeps it. */
export function identityTools(context: () => IdentityContext) {
  const env = (): TestEnv => context().suite.env;
  const ns = () => context().suite.ns;
  let kc: KeycloakAdmin | undefined;
  /** The bootstrap admin, read once (its Secret may be deleted by a test). */
  const admin = (): KeycloakAdmin => {
    if (kc) return kc;
    const live = keycloakAdmin(env(), ns());
    let account: Promise<{ username: string; password: string }> | undefined;
    kc = keycloakAdminApi(live.url, () => {
      account ??= env()
        .core.readNamespacedSecret({ namespace: ns(), name: 'idp-admin-credentials' })
        .then((s) => ({ username: text(s.data, 'username'), password: text(s.data, 'password') }));
      return account;
    });
    return kc;
  };
  const realm = (name: string, spec: Record<string, unknown> = {}) =>
    env().apply({
      apiVersion: 'realmforge.dev/v1',
      kind: 'IdentityRealm',
      metadata: { name, namespace: ns() },
      spec: { serverRef: { name: 'idp' }, clientAuthorizationGrants: [ns()], ...spec },
    } as never);
  /** A token from `tokenRealm`'s endpoint for `form` (the status and the token, if any). */
  const token = async (tokenRealm: string, form: Record<string, string>) => {
    const res = await fetch(`${admin().url()}/realms/${tokenRealm}/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams(form),
    });
    const body = (await res.json()) as { access_token?: string; expires_in?: number };
    return { status: res.status, token: body.access_token, expiresIn: body.expires_in };
  };
  const clientToken = (tokenRealm: string, clientId: string, secret: string) =>
    token(tokenRealm, { grant_type: 'client_credentials', client_id: clientId, client_secret: secret });
  const asToken = async (bearer: string | undefined, path: string, method = 'GET') =>
    (
      await fetch(`${admin().url()}/admin/realms${path}`, {
        method,
        headers: { authorization: `Bearer ${bearer}` },
      })
    ).status;
  /** The operator's Secret: its master identity (user name in master, a token) and the realm key. */
  const operatorSecret = async () => {
    const s = await env().core.readNamespacedSecret({ namespace: ns(), name: 'idp-operator-client' });
    const clientId = text(s.data, 'client-id');
    const username = text(s.data, 'username');
    return {
      key: text(s.data, 'realm-key'),
      masterUser: clientId ? `service-account-${clientId}` : username,
      masterToken: () =>
        clientId
          ? clientToken('master', clientId, text(s.data, 'client-secret'))
          : token('master', {
              grant_type: 'password',
              client_id: 'admin-cli',
              username,
              password: text(s.data, 'password'),
            }),
    };
  };
  const masterUserId = async () => {
    const { masterUser } = await operatorSecret();
    const [user] = await admin()('GET', `/master/users?username=${masterUser}&exact=true`);
    return (user as { id: string }).id;
  };
  const realmRoles = async (userId: string) =>
    ((await admin()('GET', `/master/users/${userId}/role-mappings/realm`)) as { name: string }[]).map(
      (r) => r.name,
    );
  return { env, ns, admin, realm, clientToken, asToken, operatorSecret, masterUserId, realmRoles };
}

/** Registers the tests of the header on the default uvu suite. */
export function realmIdentityTests(context: () => IdentityContext): void {
  const t = identityTools(context);
  const ready = (name: string) =>
    waitStatus(t.env(), 'identityrealms', t.ns(), name, 180_000, (s) => s.phase === 'Ready', 'Ready');

  test('the master identity holds create-realm, not admin, and Keycloak refuses it a realm it did not create', async () => {
    await t.realm('alpha');
    await ready('alpha');
    const roles = await t.realmRoles(await t.masterUserId());
    assert.ok(roles.includes('create-realm'), roles.join(', '));
    assert.not.ok(roles.includes('admin'), roles.join(', '));
    const master = await (await t.operatorSecret()).masterToken();
    assert.is(master.status, 200);
    assert.is(await t.asToken(master.token, '/master/users'), 403, 'master users are out of reach');
    assert.is(await t.asToken(master.token, '/alpha/clients?clientId=x'), 200, 'its own realm is in reach');
    await t.admin()('POST', '', { realm: 'by-hand', enabled: true });
    assert.is(await t.asToken(master.token, '/by-hand/clients'), 403);
    assert.is(await t.asToken(master.token, '/by-hand/users'), 403);
    assert.is(await t.asToken(master.token, '/by-hand', 'DELETE'), 403);
  });

  test('a realm identity deleted by hand is restored with the master identity and reported', async () => {
    const kc = t.admin();
    const [client] = await kc('GET', '/alpha/clients?clientId=realmforge-operator');
    assert.ok(client, 'alpha carries the operator identity');
    await kc('DELETE', `/alpha/clients/${client.id}`);
    await waitStatus(
      t.env(),
      'identityrealms',
      t.ns(),
      'alpha',
      120_000,
      (s) => s.reason === 'RealmIdentityRestored',
      'reported RealmIdentityRestored',
    );
    const [again] = await kc('GET', '/alpha/clients?clientId=realmforge-operator');
    assert.ok(again && again.id !== client.id, 'a new client');
    const { key } = await t.operatorSecret();
    const own = await t.clientToken('alpha', 'realmforge-operator', realmIdentitySecret(key, 'alpha'));
    assert.is(own.status, 200);
    // Keycloak rounds the seconds left down: 3599 for an hour.
    assert.ok(
      Math.abs((own.expiresIn ?? 0) - realmIdentityTokenLifespanS) <= 1,
      `one token serves the realm for an hour of resyncs: expires_in ${own.expiresIn}`,
    );
  });

  test('an adopted realm without a grant is reported and not written; with the named grant it is managed', async () => {
    const kc = t.admin();
    await kc('PUT', '/by-hand', { displayName: 'Made by hand' });
    await t.realm('by-hand', { adoptExisting: true, displayName: 'Adopted' });
    const stuck = await waitStatus(
      t.env(),
      'identityrealms',
      t.ns(),
      'by-hand',
      120_000,
      (s) => s.reason === 'RealmGrantMissing',
      'RealmGrantMissing',
    );
    assert.match(stuck.status.message, 'client by-hand-realm in master');
    assert.match(stuck.status.message, `user ${(await t.operatorSecret()).masterUser} in master`);
    assert.is((await kc('GET', '/by-hand')).displayName, 'Made by hand');
    assert.equal(await kc('GET', '/by-hand/clients?clientId=realmforge-operator'), []);
    await giveNamedGrant(kc, 'by-hand', stuck.status.message);
    await ready('by-hand');
    assert.is((await kc('GET', '/by-hand')).displayName, 'Adopted');
    assert.is((await kc('GET', '/by-hand/clients?clientId=realmforge-operator')).length, 1);
  });

  test('an earlier release (master identity holding admin, a realm without identity) is reduced when the operator starts', async () => {
    const kc = t.admin();
    const { suite } = context();
    const userId = await t.masterUserId();
    await suite.operator.stop();
    await kc('POST', `/master/users/${userId}/role-mappings/realm`, [await kc('GET', '/master/roles/admin')]);
    await kc('POST', '', {
      realm: 'old',
      enabled: true,
      attributes: { 'realmforge.dev/owner': `${t.ns()}/old` },
    });
    await t.realm('old');
    const operator: OperatorProcess = await suite.startOperator();
    suite.operator = operator;
    await eventually('the event OperatorIdentityReduced', 120_000, async () => {
      const events = await t.env().core.listNamespacedEvent({ namespace: t.ns() });
      return events.items.find((e) => e.reason === 'OperatorIdentityReduced');
    });
    assert.not.ok((await t.realmRoles(userId)).includes('admin'), 'admin was taken');
    assert.is(
      (await kc('GET', '/old/clients?clientId=realmforge-operator')).length,
      1,
      'old has its identity',
    );
    await kc('POST', '', { realm: 'stranger', enabled: true });
    const master = await (await t.operatorSecret()).masterToken();
    assert.is(
      await t.asToken(master.token, '/stranger/clients'),
      403,
      'refused on a realm it did not create',
    );
    await kc('DELETE', '/stranger');
    for (const name of ['alpha', 'by-hand', 'old']) await ready(name);
    // Every realm reconciles with zero writes: two resyncs of each, counted by the operator.
    const writes = () => operator.writes();
    const reconciles = () => operator.counter('realmforge_reconcile_total', { kind: 'IdentityRealm' });
    const [before, seen] = [await writes(), await reconciles()];
    await eventually('two resyncs of each realm', 60_000, async () =>
      (await reconciles()) - seen >= 6 ? true : undefined,
    );
    assert.is((await writes()) - before, 0, 'no write in steady state');
  });

  test('a master identity deleted by hand is made again by the bootstrap admin and gets back its realms, without admin', async () => {
    const kc = t.admin();
    const { masterUser } = await t.operatorSecret();
    const prefix = 'service-account-';
    if (masterUser.startsWith(prefix)) {
      const [client] = await kc('GET', `/master/clients?clientId=${masterUser.slice(prefix.length)}`);
      await kc('DELETE', `/master/clients/${client.id}`);
    } else await kc('DELETE', `/master/users/${await t.masterUserId()}`);
    // Back with the creator's roles of every realm (alpha answers it), and admin given up again.
    await eventually('the new master identity manages alpha without admin', 120_000, async () => {
      const master = await (await t.operatorSecret()).masterToken();
      if ((await t.asToken(master.token, '/alpha/clients?clientId=x')) !== 200) return undefined;
      return (await t.realmRoles(await t.masterUserId())).includes('admin') ? undefined : true;
    });
    const events = await t.env().core.listNamespacedEvent({ namespace: t.ns() });
    assert.ok(
      events.items.some((e) => e.reason === 'OperatorRealmsFound'),
      'the new identity held admin only until the realms were adopted',
    );
  });

  test('the bootstrap admin Secret deleted changes nothing: a realm is made and deleted by the master identity', async () => {
    const kc = t.admin();
    await kc('GET', '/alpha'); // the account is read before its Secret goes
    const generation = async () =>
      (await t.env().apps.readNamespacedDeployment({ namespace: t.ns(), name: 'idp' })).metadata?.generation;
    const rolledOut = await generation();
    await t.env().core.deleteNamespacedSecret({ namespace: t.ns(), name: 'idp-admin-credentials' });
    await t.realm('after', { displayName: 'After the bootstrap admin' });
    await ready('after');
    assert.is((await kc('GET', '/after')).displayName, 'After the bootstrap admin');
    await t.env().request('DELETE', `/apis/realmforge.dev/v1/namespaces/${t.ns()}/identityrealms/after`);
    await eventually('realm after deleted', 60_000, async () =>
      (await kc('GET', '/after')) === undefined ? true : undefined,
    );
    const server = await waitStatus(
      t.env(),
      'identityservers',
      t.ns(),
      'idp',
      60_000,
      (s) => s.phase === 'Ready',
      'Ready',
    );
    assert.is(server.status.reason, 'Ready');
    assert.is(await generation(), rolledOut, 'Keycloak was not restarted');
  });
}
