// The one ownership rule on the ledger-owned collections, against the strict in-memory Keycloak: a client profile,
// a message override and a realm scope link a person made, with names the spec declares, are NameConflict (nothing
// written) unless the realm asks for adoption; what Keycloak made itself (a new realm's scope links) is not a
// person's; a key is claimed before its item is created, so a crash in between is no conflict later; and a
// whole-document write reads the document again right before it writes, keeping a person's concurrent edit.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';
import { syncRealm } from '../../../src/operator/controllers/identity-realm/realm-sync.ts';
import { fakeKeycloakAdmin } from './fake-keycloak-admin.ts';
import { killedAfter, observed } from './killed-admin.ts';

type Spec = Partial<IdentityRealm['spec']>;
const en: [string] = ['en'];
type Obj = Record<string, any>;
const resource = (spec: Spec): IdentityRealm => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityRealm',
  metadata: { name: 'apps', namespace: 'team' },
  spec: { serverRef: { name: 'kc' }, ...spec },
});
const refusal = (kc: ReturnType<typeof fakeKeycloakAdmin>, spec: Spec) =>
  syncRealm(kc.admin, resource(spec), {}).then(
    () => undefined,
    (e: Error & { reason?: string }) => e,
  );
const pkce = { name: 'pkce', executors: [{ executor: 'pkce-enforcer', configuration: {} }] };
const texts = { localization: { supportedLocales: en, messages: { en: { loginTitle: 'Welcome' } } } };

/** Made by hand in a realm the operator created: a profile, a message override, a scope linked as default. */
async function personsRealm() {
  const kc = fakeKeycloakAdmin();
  await syncRealm(kc.admin, resource({ localization: { supportedLocales: en } }), {});
  const realm = kc.realms.get('apps') as Obj;
  realm.clientProfiles = [{ name: 'pkce', description: 'mine', executors: [] }];
  realm.messages = { en: { loginTitle: 'by hand' } };
  const made = await kc.admin.call('t', 'POST', '/apps/client-scopes', {
    name: 'hand',
    protocol: 'openid-connect',
  });
  assert.is(made.status, 201);
  const hand = realm.clientScopes.find((s: Obj) => s.name === 'hand');
  await kc.admin.call('t', 'PUT', `/apps/default-default-client-scopes/${hand.id}`);
  kc.reset();
  return { kc, realm };
}

test("a person's client profile, message override and scope link with declared names are NameConflict", async () => {
  const cases: [string, Spec, RegExp][] = [
    [
      'client profile',
      { clientPolicies: { profiles: [pkce] } },
      /declares client profile "pkce", which already exists/,
    ],
    ['message', texts, /declares en message "loginTitle", which already exists/],
    [
      'scope link',
      { realmDefaultClientScopes: { default: ['hand', 'profile'] } },
      /declares realm default client scope "hand", which already exists/,
    ],
  ];
  for (const [what, spec, message] of cases) {
    const { kc, realm } = await personsRealm();
    const error = await refusal(kc, { localization: { supportedLocales: en }, ...spec });
    assert.is(error?.reason, 'NameConflict', what);
    assert.match(String(error?.message), message);
    // The realm's own fields may be updated; nothing of the person's items, and no ledger claims them.
    assert.equal(
      kc.writes().filter((w) => w !== 'PUT /apps'),
      [],
      `${what}: nothing of theirs written`,
    );
    assert.not.match(JSON.stringify(realm.attributes), /pkce|loginTitle|hand/, `${what}: not claimed`);
    assert.is(realm.clientProfiles[0].description, 'mine');
    assert.is(realm.messages.en.loginTitle, 'by hand');
    // Asked for, it is taken over; then it is ours.
    const adopted = await syncRealm(kc.admin, resource({ ...texts, ...spec, adoptExisting: true }), {});
    assert.ok(adopted.writes.length, what);
    kc.reset();
    assert.equal(
      (await syncRealm(kc.admin, resource({ ...texts, ...spec }), {})).writes,
      [],
      `${what}: steady`,
    );
  }
});

test("a person's protocol mapper on the operator's scope is NameConflict, and stays one", async () => {
  const kc = fakeKeycloakAdmin();
  const scope = { name: 'orders', protocolMappers: [] as never[] };
  await syncRealm(kc.admin, resource({ clientScopes: [scope] }), {});
  const live = (kc.realms.get('apps') as Obj).clientScopes.find((s: Obj) => s.name === 'orders');
  const mapper = {
    name: 'aud',
    protocol: 'openid-connect',
    protocolMapper: 'oidc-audience-mapper',
    config: {},
  };
  const added = await kc.admin.call(
    't',
    'POST',
    `/apps/client-scopes/${live.id}/protocol-mappers/models`,
    mapper,
  );
  assert.ok(added.status < 300, String(added.status));
  const declared = {
    clientScopes: [{ name: 'orders', protocolMappers: [{ ...mapper, config: { x: '1' } }] }],
  };
  for (const attempt of ['first', 'second']) {
    const error = await refusal(kc, declared as Spec);
    assert.is(error?.reason, 'NameConflict', attempt);
    assert.match(String(error?.message), /declares protocol mapper "aud", which already exists/);
  }
});

test("Keycloak's own scope links may be declared (not a person's)", async () => {
  const kc = fakeKeycloakAdmin();
  await syncRealm(kc.admin, resource({}), {});
  const writes = (
    await syncRealm(kc.admin, resource({ realmDefaultClientScopes: { default: ['profile', 'email'] } }), {})
  ).writes;
  assert.ok(
    writes.some((w) => /^(update realm|record) .*managed-default-client-scopes/.test(w)),
    writes.join('; '),
  );
});

test('a crash after any write of a new profile and message is no conflict at the next reconcile', async () => {
  const spec = { ...texts, clientPolicies: { profiles: [pkce] } };
  for (let n = 0; ; n++) {
    const kc = fakeKeycloakAdmin();
    await syncRealm(kc.admin, resource({ localization: { supportedLocales: en } }), {});
    const crashed = await syncRealm(killedAfter(kc.admin, n), resource(spec), {}).then(
      () => false,
      () => true,
    );
    const next = await syncRealm(kc.admin, resource(spec), {});
    assert.ok(next, `crash after ${n} writes`);
    assert.equal((await syncRealm(kc.admin, resource(spec), {})).writes, [], `steady after ${n}`);
    assert.equal(
      (kc.realms.get('apps') as Obj).clientProfiles.map((p: Obj) => p.name),
      ['pkce'],
    );
    if (!crashed) break;
  }
});

test("a whole-document write reads again right before it writes: a person's edit since the first read is kept", async () => {
  const kc = fakeKeycloakAdmin();
  await syncRealm(kc.admin, resource({}), {});
  const realm = kc.realms.get('apps') as Obj;
  let reads = 0;
  // A person adds a profile right after the operator's first read of the document.
  const racing = observed(kc.admin, (method, path) => {
    if (method === 'GET' && path.includes('client-policies/profiles') && reads++ === 0)
      realm.clientProfiles = [...(realm.clientProfiles ?? []), { name: 'theirs', executors: [] }];
  });
  const writes = (await syncRealm(racing, resource({ clientPolicies: { profiles: [pkce] } }), {})).writes;
  assert.ok(writes.includes('create client profile pkce'), writes.join('; '));
  assert.equal(realm.clientProfiles.map((p: Obj) => p.name).sort(), ['pkce', 'theirs']);
  assert.ok(reads >= 2, 'read again before the write');
});

test.run();
