// A new realm's flows, required actions and client scopes in its create call, listed with Keycloak's own as the
// server makes them (realm-template.ts, realm-create-builtins.ts): the body carries built-ins and declared items,
// their steps make no call after the create, a resync that reads every section writes nothing, and Keycloak's own
// are read once per server and version. Against the strict in-memory Keycloak, whose import keeps only what a body
// lists (fake-keycloak-builtins.ts).
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';
import { syncRealm } from '../../../src/operator/controllers/identity-realm/realm-sync.ts';
import { readRecord } from '../../../src/operator/keycloak/collections/record.ts';
import { realmTemplate, scratchRealmPrefix } from '../../../src/operator/keycloak/realm-template.ts';
import { bodiesOf, fakeKeycloakAdmin } from './fake-keycloak-admin.ts';

function production(): IdentityRealm {
  const realm = parse(readFileSync('examples/identityrealm-production.yaml', 'utf8')) as IdentityRealm;
  delete realm.spec.smtp;
  return realm;
}

let servers = 0;
/** A fake server of its own (the template is kept per server) with its template read, recording create bodies. */
async function server() {
  const kc = fakeKeycloakAdmin();
  const recorded = bodiesOf(kc, 'POST', '');
  const admin = { ...recorded.admin, baseUrl: `http://kc-${++servers}` };
  const template = await realmTemplate(admin, 'ns', '26.7.3');
  assert.ok(template, 'the template is read');
  recorded.bodies.length = 0;
  kc.reset();
  return { kc, admin, bodies: recorded.bodies, template };
}

const record0 = (body: any) => readRecord(body?.attributes) as NonNullable<ReturnType<typeof readRecord>>;

/** The calls about the sections the create carries besides the realm's own. */
const builtInCalls = (calls: string[]) =>
  calls.filter((c) =>
    /\/(authentication|client-scopes|default-(default|optional)-client-scopes)(\/|\?|$)/.test(c),
  );

test('the production example: flows, required actions and client scopes with Keycloak’s own in the create; a resync writes nothing', async () => {
  const { kc, admin, bodies, template } = await server();
  // As the controller calls it: the realm read (absent) to decide ownership.
  const first = await syncRealm(admin, production(), {
    realmIdentitySecret: 's3cret',
    template,
    live: undefined,
  });
  assert.equal(first.writes, ['create realm']);
  // The create and its read-back; nothing about the carried sections after it.
  assert.equal(kc.calls, ['POST ', 'GET /workforce']);
  const [body] = bodies;
  assert.ok(record0(body).fields.includes('attributes/realmforge.dev/required-actions-before'));
  const aliases = body?.authenticationFlows.map((f: any) => f.alias);
  for (const f of template.authenticationFlows) assert.ok(aliases.includes(f.alias), String(f.alias));
  for (const alias of ['browser-payroll-otp', 'browser-payroll-otp-forms', 'browser-payroll-otp-condition'])
    assert.ok(aliases.includes(alias), alias);
  const condition = body?.authenticationFlows.find((f: any) => f.alias === 'browser-payroll-otp-condition');
  assert.is(condition.topLevel, false);
  assert.is(condition.authenticationExecutions[0].authenticatorConfig, 'payroll-admins');
  assert.ok(body?.authenticatorConfig.some((c: any) => c.alias === 'payroll-admins'));
  assert.is(body?.authenticatorConfig.length, template.authenticatorConfig.length + 1);
  assert.is(body?.browserFlow, 'browser-payroll-otp');
  assert.is(body?.directGrantFlow, 'direct grant');
  const actions = new Map(body?.requiredActions.map((a: any) => [a.alias, a]));
  assert.is(actions.size, template.requiredActions.length);
  assert.equal(
    [actions.get('CONFIGURE_TOTP'), actions.get('TERMS_AND_CONDITIONS')].map((a: any) => [
      a.enabled,
      a.defaultAction,
      a.priority,
    ]),
    [
      [true, true, 10],
      [true, true, 1],
    ],
  );
  const scopes = body?.clientScopes.map((s: any) => s.name);
  assert.equal(scopes, [...template.clientScopes.map((s) => s.name), 'payroll.read']);
  const payroll = body?.clientScopes.at(-1);
  assert.equal(
    payroll.protocolMappers.map((m: any) => m.name),
    ['payroll-audience'],
  );
  assert.equal(body?.defaultDefaultClientScopes, template.defaultDefaultClientScopes);
  // Keycloak's own role scope mapping (offline_access's), which an import listing scopes would not make.
  assert.equal(kc.realms.get('workforce')?.scopeMappings, [
    { clientScope: 'offline_access', roles: ['offline_access'] },
  ]);
  // Recorded as the steps record them: the flows, the scopes, the actions' settings from before the spec.
  const record = readRecord(body?.attributes);
  assert.equal(record?.items['managed-flows'], ['browser-payroll-otp']);
  assert.equal(record?.items['managed-client-scopes'], ['payroll.read']);
  assert.equal(JSON.parse(String(record?.recorded['required-actions-before'])), {
    CONFIGURE_TOTP: { defaultAction: false, enabled: true, priority: 10 },
    TERMS_AND_CONDITIONS: { defaultAction: false, enabled: false, priority: 20 },
  });
  kc.reset();
  const again = await syncRealm(admin, production(), { realmIdentitySecret: 's3cret' });
  // The resync read the flows, actions and scopes (a difference would have been seen), and wrote nothing.
  assert.ok(builtInCalls(kc.calls).length >= 5, kc.calls.join('\n'));
  assert.equal(again.writes, []);
  assert.equal(kc.writes(), []);
});

test('the same realm without Keycloak’s own sections goes through the steps, as before', async () => {
  const kc = fakeKeycloakAdmin();
  const { admin, bodies } = bodiesOf(kc, 'POST', '');
  await syncRealm(admin, production(), {});
  assert.is(bodies[0]?.authenticationFlows, undefined);
  assert.is(bodies[0]?.clientScopes, undefined);
  assert.ok(builtInCalls(kc.calls).length > 10, kc.calls.join('\n'));
});

test('a declared flow alias Keycloak’s own flows take, or an unknown required action: their step checks it', async () => {
  const { kc, admin, bodies, template } = await server();
  const realm = production();
  realm.spec.authenticationFlows = [{ alias: 'browser', executions: [] }];
  delete realm.spec.authenticationFlowBindings;
  const error = await syncRealm(admin, realm, { template }).catch((e: Error) => e);
  assert.is(bodies[0]?.authenticationFlows, undefined);
  // The scopes are carried still; the flows' step ran after the create and refused the alias, naming it.
  assert.ok(bodies[0]?.clientScopes);
  assert.match(String(error), 'already exists');
  assert.ok(kc.calls.includes('GET /workforce/authentication/flows'));

  const other = await server();
  const unknown = production();
  unknown.spec.requiredActions = [{ alias: 'NO_SUCH_ACTION' }];
  const refused = await syncRealm(other.admin, unknown, { template: other.template }).catch((e: Error) => e);
  assert.is(other.bodies[0]?.requiredActions, undefined);
  assert.match(String(refused), 'has no required action "NO_SUCH_ACTION"');
});

test('a link to a scope that does not exist is left to the scopes’ step, which names the field', async () => {
  const { admin, bodies, template } = await server();
  const realm = production();
  realm.spec.realmDefaultClientScopes = { default: ['no-such-scope'] };
  const error = await syncRealm(admin, realm, { template }).catch((e: Error) => e);
  assert.is(bodies[0]?.clientScopes, undefined);
  assert.ok(bodies[0]?.authenticationFlows);
  assert.match(String(error), 'spec.realmDefaultClientScopes.default names client scope "no-such-scope"');
});

test('a declared link moves a scope of Keycloak’s from the other list, as the step’s link does', async () => {
  const { kc, admin, bodies, template } = await server();
  const realm = production();
  realm.spec.realmDefaultClientScopes = { default: ['payroll.read', 'address'], optional: ['email'] };
  await syncRealm(admin, realm, { template });
  assert.ok(bodies[0]?.defaultDefaultClientScopes.includes('address'));
  assert.ok(!bodies[0]?.defaultDefaultClientScopes.includes('email'));
  assert.ok(bodies[0]?.defaultOptionalClientScopes.includes('email'));
  assert.ok(!bodies[0]?.defaultOptionalClientScopes.includes('address'));
  kc.reset();
  assert.equal((await syncRealm(admin, realm, {})).writes, []);
  assert.ok(kc.calls.includes('GET /workforce/default-default-client-scopes'), kc.calls.join('\n'));
});

test('Keycloak’s own sections are read once per server and Keycloak version, from a scratch realm it deletes', async () => {
  const kc = fakeKeycloakAdmin();
  const admin = { ...kc.admin, baseUrl: 'http://kc-once' };
  const [a, b] = await Promise.all([
    realmTemplate(admin, 'ns', '26.7.3'),
    realmTemplate(admin, 'ns', '26.7.3'),
  ]);
  await realmTemplate(admin, 'ns', '26.7.3');
  assert.is(a, b);
  const made = kc.calls.filter((c) => c === 'POST ');
  assert.is(made.length, 1, kc.calls.join('\n'));
  assert.equal(
    kc.calls.map((c) => c.replace(/realmforge-template-[0-9a-z]+-[0-9a-f]{8}/, 'scratch')),
    [
      'GET ?briefRepresentation=true',
      'POST ',
      'POST /scratch/partial-export?exportClients=false&exportGroupsAndRoles=false',
      'DELETE /scratch',
    ],
  );
  assert.is(kc.realms.size, 0, 'the scratch realm is deleted');
  assert.ok(
    a?.authenticationFlows.every((f) => !('id' in f)),
    'no ids: each realm gets its own',
  );
  assert.ok(kc.calls[0] !== undefined && scratchRealmPrefix.startsWith('realmforge-'));
  // An upgraded Keycloak has its own built-ins: read again.
  await realmTemplate(admin, 'ns', '26.8.0');
  assert.is(kc.calls.filter((c) => c === 'POST ').length, 2);
});

test("a scratch realm left by an operator stopped mid-read is deleted by the next read, a fresh one (another's read) kept", async () => {
  const kc = fakeKeycloakAdmin();
  const admin = { ...kc.admin, baseUrl: 'http://kc-leftover' };
  const now = Date.UTC(2026, 10, 29, 9);
  const scratch = (ms: number) => `${scratchRealmPrefix}${ms.toString(36)}-0badcafe`;
  for (const realm of [
    scratch(now - 11 * 60_000),
    scratch(now - 60_000),
    `${scratchRealmPrefix}0123456789ab`,
    'apps',
  ])
    await kc.admin.call('t', 'POST', '', { realm, enabled: false });
  await realmTemplate(admin, 'ns', '26.7.3', () => {}, now);
  assert.equal([...kc.realms.keys()].sort(), ['apps', scratch(now - 60_000)].sort());
});

test('a template Keycloak refuses is told, leaves no scratch realm, and is read again by the next create', async () => {
  const kc = fakeKeycloakAdmin();
  const admin = { ...kc.admin, baseUrl: 'http://kc-refusing' };
  const told: string[] = [];
  kc.failNext('POST /realmforge-template-');
  assert.is(await realmTemplate(admin, 'ns', '26.7.3', (m) => told.push(m)), undefined);
  assert.match(
    told[0] ?? '',
    /^cannot read Keycloak's own flows, required actions and client scopes .* HTTP 500/,
  );
  assert.is(kc.realms.size, 0, 'the scratch realm is deleted');
  assert.ok(await realmTemplate(admin, 'ns', '26.7.3', (m) => told.push(m)));
  assert.is(told.length, 1);
});

test.run();
