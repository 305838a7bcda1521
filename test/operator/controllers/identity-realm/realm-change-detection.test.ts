// The realm and client reconciles with change detection, against the in-memory Keycloak (which records an admin
// event for each write to a realm with admin events on): a steady resync sends one cursor read, shared by the
// realm and its client; a hand edit is read and reverted by the next resync, also in the sections Keycloak records no
// event for (read in every pass); a realm whose spec turns admin events off, and an observed one, read everything
// every time.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KubeObject } from '../../../../src/operator/compile/kube-object.ts';
import { identityClientController } from '../../../../src/operator/controllers/identity-client/identity-client.ts';
import { identityRealmController } from '../../../../src/operator/controllers/identity-realm/identity-realm.ts';
import { changeDetection } from '../../../../src/operator/keycloak/change-detection.ts';
import { pkceClientPolicies } from '../../../helpers/realm-specs.ts';
import { fakeOperatorUserId } from '../../keycloak/fake-keycloak-admin.ts';
import { driftIntervalMs, keycloakWorld, realmResource, statusOf, type World } from '../keycloak-world.ts';

const spec = {
  displayName: 'Apps',
  roles: [{ name: 'viewer', description: 'sees' }],
  clientAuthorizationGrants: ['identity'],
};
const web = {
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityClient',
  metadata: { name: 'web', namespace: 'identity', generation: 1 },
  spec: { realmRef: { name: 'apps' }, clientId: 'web', redirectUris: ['https://web.test/cb'] },
} as unknown as KubeObject;

function world(realmSpec: Record<string, unknown> = spec, objects: KubeObject[] = []) {
  const w = keycloakWorld([realmResource('apps', 'identity', realmSpec), ...objects]);
  const woken: string[] = [];
  const changes = changeDetection({
    clock: w.clock,
    driftIntervalMs,
    fullResyncPeriodMs: 40 * driftIntervalMs,
    own: (userId) => userId === fakeOperatorUserId,
    wake: (consumer) => woken.push(consumer),
  });
  const deps = { ...w.deps, changes };
  const realm = () => identityRealmController(deps)('identity/apps');
  const client = () => identityClientController(deps)('identity/web');
  /** One drift interval later, the calls of `reconcile`. */
  const pass = async (reconcile: () => Promise<{ outcome?: { phase?: string } }>) => {
    w.clock.advance(driftIntervalMs);
    w.keycloak.reset();
    const { outcome } = await reconcile();
    return { phase: outcome?.phase, calls: [...w.keycloak.calls] };
  };
  return { w, realm, client, pass, woken };
}
const cursor = ['GET /apps/admin-events?first=0&max=1'];
const descriptionOf = async (w: World) =>
  (await w.keycloak.admin.call<{ description?: string }>('t', 'GET', '/apps/roles/viewer')).body.description;

test('a steady realm resync reads only the newest admin event; a hand edit is reverted by the next one', async () => {
  const { w, realm, pass } = world();
  assert.is((await realm()).outcome?.phase, 'Ready', 'created');
  assert.is(w.keycloak.realms.get('apps')?.adminEventsEnabled, true, 'admin events turned on');
  assert.is(w.keycloak.realms.get('apps')?.attributes?.adminEventsExpiration, '86400');
  // Its create call carried the whole spec and no admin event came after it: settled as created.
  const steady = await pass(realm);
  assert.equal(steady, { phase: 'Ready', calls: cursor });
  assert.is(statusOf(w, 'IdentityRealm', 'identity', 'apps').phase, 'Ready');
  const role = (await w.keycloak.admin.call<{ id: string }>('t', 'GET', '/apps/roles/viewer')).body;
  await w.keycloak.admin.call('t', 'PUT', `/apps/roles-by-id/${role.id}`, {
    ...role,
    description: 'by hand',
  });
  const revert = await pass(realm);
  assert.ok(
    revert.calls.some((c) => c.startsWith('PUT ')),
    revert.calls.join(', '),
  );
  assert.is(await descriptionOf(w), 'sees');
  assert.ok((await pass(realm)).calls.length > 1, 'the pass after its own write reads everything once more');
  assert.equal((await pass(realm)).calls, cursor, 'then it settles');
});

test('a realm its create call did not make whole, or touched since, is read in full after creation', async () => {
  // A declared scope named like one of Keycloak's own is not carried by the create call: steps wrote after it.
  const flows = world({ ...spec, clientScopes: [{ name: 'profile', protocol: 'openid-connect' }] });
  await flows.realm();
  assert.ok((await flows.pass(flows.realm)).calls.length > 1, 'the pass after creation reads everything');
  const touched = world();
  const { w } = touched;
  const created = w.keycloak.admin.call.bind(w.keycloak.admin);
  // A hand edit right after the create call, before the operator's pass ends.
  w.keycloak.admin.call = (async (ns: string, method: string, path: string, body?: unknown) => {
    const res = await created(ns, method as never, path, body);
    if (method === 'POST' && path === '') await created('t', 'PUT', '/apps', { displayName: 'by hand' });
    return res;
  }) as typeof w.keycloak.admin.call;
  await touched.realm();
  w.keycloak.admin.call = created;
  assert.ok((await touched.pass(touched.realm)).calls.length > 1, 'an event after the create: read in full');
  assert.is(w.keycloak.realms.get('apps')?.displayName, 'Apps', 'and reverted');
});

test('a changed spec reads everything at once, whatever the cursor says', async () => {
  const { w, realm, pass } = world();
  await realm();
  await pass(realm);
  assert.equal((await pass(realm)).calls, cursor);
  const o = w.kube.find('IdentityRealm', 'identity', 'apps') as KubeObject;
  w.kube.put({
    ...o,
    metadata: { ...o.metadata, generation: 2 },
    spec: { ...(o.spec as object), displayName: 'Apps 2' },
  } as KubeObject);
  await pass(realm);
  assert.is(w.keycloak.realms.get('apps')?.displayName, 'Apps 2');
});

test("a realm and its client share the realm's cursor read; an edit of the client is found by the realm's next resync, which runs the client", async () => {
  const { w, realm, client, pass, woken } = world(spec, [web]);
  await realm();
  await pass(realm);
  assert.is(
    (await client()).outcome?.phase,
    'Ready',
    JSON.stringify(statusOf(w, 'IdentityClient', 'identity', 'web')),
  );
  assert.equal(
    (await pass(realm)).calls,
    [...cursor, 'GET /apps/admin-events?first=0&max=50'],
    "the client's creation, the operator's own events, is no change to the realm: no full read",
  );
  assert.ok((await pass(client)).calls.length > 1, 'the client, which wrote, reads once more');
  assert.equal((await pass(realm)).calls, cursor);
  await pass(client);
  assert.equal((await pass(realm)).calls, cursor);
  w.clock.advance(-driftIntervalMs * 0.2);
  assert.equal(
    (await pass(client)).calls,
    [],
    "the realm's read four fifths of an interval ago serves the client",
  );
  woken.length = 0;
  const c = (await w.keycloak.admin.call<{ id: string }[]>('t', 'GET', '/apps/clients?clientId=web')).body[0];
  await w.keycloak.admin.call('t', 'PUT', `/apps/clients/${c?.id}`, {
    ...c,
    redirectUris: ['https://evil.test/*'],
  });
  assert.equal((await pass(realm)).calls.slice(0, 1), cursor);
  assert.equal(woken, ['IdentityClient identity/web'], 'the client is run at once');
  w.keycloak.reset();
  await client();
  const revert = w.keycloak.calls;
  assert.ok(
    revert.some((x) => x.startsWith('PUT /apps/clients/')),
    revert.join(', '),
  );
});

test('a realm whose spec turns admin events off, and an observed one, read everything every resync', async () => {
  const off = world({ ...spec, events: { adminEventsEnabled: false } });
  await off.realm();
  await off.pass(off.realm);
  const again = await off.pass(off.realm);
  assert.ok(again.calls.length > 1 && !again.calls.includes(cursor[0] as string), again.calls.join(', '));
  assert.match(statusOf(off.w, 'IdentityRealm', 'identity', 'apps').message ?? '', /admin events are off/);
  const observed = world();
  await observed.realm();
  await observed.pass(observed.realm);
  const o = observed.w.kube.find('IdentityRealm', 'identity', 'apps') as KubeObject;
  observed.w.kube.put({ ...o, spec: { ...(o.spec as object), managementPolicy: 'Observe' } } as KubeObject);
  await observed.pass(observed.realm);
  assert.ok((await observed.pass(observed.realm)).calls.length > 1);
});

test('client policies (no admin event) are read in every pass, texts in the full resync; an edit is reverted then', async () => {
  const realmSpec = {
    ...spec,
    clientPolicies: pkceClientPolicies(),
    localization: { messages: { en: { loginTitle: 'Apps' } } },
  };
  const { w, realm, pass } = world(realmSpec);
  assert.is((await realm()).outcome?.phase, 'Ready', 'created');
  await pass(realm);
  const reads = [...cursor, 'GET /apps/client-policies/policies', 'GET /apps/client-policies/profiles'];
  // The server's capabilities are read every ten minutes for client policies (server-info.ts), not per pass.
  const steady = async () => (await pass(realm)).calls.filter((c) => !c.endsWith('../serverinfo'));
  assert.equal(await steady(), reads, 'steady: the cursor and the client policies');
  const kc = w.keycloak.admin;
  const event = async () => (await kc.call<unknown[]>('t', 'GET', '/apps/admin-events?first=0&max=1')).body;
  const before = await event();
  const policies = (await kc.call<{ policies: object[] }>('t', 'GET', '/apps/client-policies/policies')).body;
  await kc.call('t', 'PUT', '/apps/client-policies/policies', {
    policies: policies.policies.map((p) => ({ ...p, enabled: false })),
  });
  assert.equal(await event(), before, 'no admin event, as on the real Keycloak');
  assert.ok((await pass(realm)).calls.some((c) => c.startsWith('PUT /apps/client-policies/policies')));
  const enabled = (
    await kc.call<{ policies: { enabled?: boolean }[] }>('t', 'GET', '/apps/client-policies/policies')
  ).body;
  assert.ok(
    enabled.policies.every((p) => p.enabled !== false),
    'reverted',
  );
  await pass(realm);
  assert.equal(await steady(), reads, 'settled again');
  await kc.call('t', 'POST', '/apps/localization/en', { loginTitle: 'by hand' });
  assert.equal(await event(), before, 'no admin event for texts either');
  const text = async () =>
    (await kc.call<Record<string, string>>('t', 'GET', '/apps/localization/en')).body.loginTitle;
  let passes = 0;
  while ((await text()) === 'by hand' && passes < 41) {
    const { calls } = await pass(realm);
    passes++;
    if (calls.some((c) => c.startsWith('POST /apps/localization/en'))) break;
    assert.equal(
      calls.filter((c) => !c.endsWith('../serverinfo')),
      reads,
      'a steady pass meanwhile',
    );
  }
  assert.is(await text(), 'Apps', 'reverted by the full resync');
  assert.ok(passes > 30 && passes <= 40, `within the 40-interval full-resync period, not before: ${passes}`);
  assert.match(statusOf(w, 'IdentityRealm', 'identity', 'apps').message ?? '', /matches the resource$/);
});

test.run();
