// The operator upgraded over realms and clients of the release before the ownership record (record.ts): that
// release, taken from git (the parent of the commit that added the record) and run from its sources, creates on
// the environment's own Keycloak (an existing server) a realm and a client with every kind of mark it kept as
// attributes of their own, and roles and a client scope carrying its owner mark; the current operator then takes
// over. Each object gets its record in one update that
// removes those attributes, the record says what they said and lists the marked items, the client still logs in,
// and no item is written: one update each (besides the realm identity the release before lacked), then none.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, type TestEnv } from '../../scripts/testenv/harness.ts';
import { identityResource, waitStatus } from '../../scripts/testenv/identity-fixtures.ts';
import { inRecord, openRecord, recordAttribute } from '../../src/operator/keycloak/collections/record.ts';
import { loadEndpointMap } from '../../src/operator/runtime/endpoint-map.ts';
import type { KeycloakAdmin } from './helpers/keycloak-admin.ts';
import { type OperatorSuite, operatorSuite } from './helpers/operator-suite.ts';
import { resyncs } from './helpers/resyncs.ts';

type Obj = Record<string, unknown>;
const root = join(import.meta.dirname, '..', '..');
let previous: string;
let suite: OperatorSuite;
let env: TestEnv;
let ns: string;
let kc: KeycloakAdmin;

/** The release before the record, from git, runnable from its sources with this checkout's dependencies. */
function previousRelease(): string {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  const added = git(
    'log',
    '--diff-filter=A',
    '--format=%H',
    '-1',
    '--',
    'src/operator/keycloak/collections/record.ts',
  );
  const dir = mkdtempSync(join(tmpdir(), 'realmforge-before-record-'));
  execFileSync('sh', ['-c', `git archive ${added}^ | tar -x -C ${dir}`], { cwd: root });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

test.before(async () => {
  previous = previousRelease();
  suite = await operatorSuite('rec-upg', {
    beforeStart: async () => ({ entry: join(previous, 'bin', 'realmforge.js') }),
    server: 'harness',
  });
  ({ env, ns } = suite);
  kc = suite.keycloak;
});
test.after(async () => {
  await suite?.close();
  if (previous) rmSync(previous, { recursive: true, force: true });
});

/** The operator's marks an object carries as attributes of their own (the release before the record's form). */
const legacyMarks = (live: Obj) =>
  Object.entries((live.attributes ?? {}) as Obj).filter(
    ([k, v]) => inRecord(k) && v !== '' && v !== undefined,
  );
/** The marks as the sections read them: from the record, or from the attributes of their own. */
const marks = (live: Obj) => {
  const { [recordAttribute]: _, ...rest } = (openRecord(live).attributes ?? {}) as Obj;
  return Object.fromEntries(Object.entries(rest).filter(([k]) => inRecord(k)));
};

async function clientLogin(): Promise<number> {
  const secret = await env.core.readNamespacedSecret({ namespace: ns, name: 'web-credentials' });
  const value = (k: string) => Buffer.from(secret.data?.[k] ?? '', 'base64').toString('utf8');
  const res = await fetch(loadEndpointMap(env.state.endpointMapFile).resolve(value('token-endpoint')), {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: value('client-id'),
      client_secret: value('client-secret'),
    }),
  });
  await res.arrayBuffer();
  return res.status;
}

test('a realm and a client of the release before the record: migrated in their own updates, then zero writes', async () => {
  const realmSpec = {
    serverRef: { name: 'idp' },
    clientAuthorizationGrants: [ns],
    displayName: 'Apps',
    roles: [{ name: 'reader' }],
    localization: { supportedLocales: ['en'], defaultLocale: 'en', messages: { en: { loginTitle: 'Hi' } } },
    requiredActions: [{ alias: 'CONFIGURE_TOTP', defaultAction: true }],
    clientScopes: [{ name: 'orders' }],
    realmDefaultClientScopes: { default: ['orders', 'profile'], optional: [] },
  };
  const team = { 'claim.name': 'team', 'claim.value': 'a', 'access.token.claim': 'true' };
  const clientSpec = {
    realmRef: { name: 'apps' },
    roles: [{ name: 'viewer' }],
    serviceAccount: { enabled: true, realmRoles: ['reader'] },
    protocolMappers: [{ name: 'team', protocolMapper: 'oidc-hardcoded-claim-mapper', config: team }],
  };
  await env.apply(identityResource('IdentityRealm', ns, 'apps', realmSpec) as never);
  await env.apply(identityResource('IdentityClient', ns, 'web', clientSpec) as never);
  const ready = (s: { phase?: string }) => s.phase === 'Ready';
  await waitStatus(env, 'identityrealms', ns, 'apps', 120_000, ready, 'to be Ready');
  await waitStatus(env, 'identityclients', ns, 'web', 120_000, ready, 'to be Ready');
  const realm = async () => (await kc.call('GET', '/apps')) as Obj;
  const client = async () => ((await kc.call('GET', '/apps/clients?clientId=web')) as Obj[])[0] as Obj;
  const before = { realm: marks(await realm()), client: marks(await client()) };
  for (const [what, live] of [
    ['realm', await realm()],
    ['client', await client()],
  ] as const) {
    assert.not.ok(
      (live.attributes as Obj)?.[recordAttribute],
      `the previous release wrote no ${what} record`,
    );
    assert.ok(legacyMarks(live).length >= 3, `${what}: ${JSON.stringify(live.attributes)}`);
  }
  assert.ok(before.realm['realmforge.dev/managed-messages'], 'a realm ledger');
  assert.ok(before.client['realmforge.dev/managed-mappers'], 'a client ledger');
  assert.is(await clientLogin(), 200);

  await suite.operator.stop();
  const current = await suite.startOperator();
  /** `times` resyncs of the realm and of the client, counted by the current operator. */
  const resynced = (times: number) =>
    Promise.all(['IdentityRealm', 'IdentityClient'].map((kind) => resyncs(env, current, kind, times)));
  for (const read of [realm, client])
    await eventually('the record, the legacy attributes gone', 60_000, async () => {
      const live = await read();
      return (live.attributes as Obj)?.[recordAttribute] && !legacyMarks(live).length ? true : undefined;
    });
  // Besides: the items the release before marked one by one, now listed in the record.
  const items = { realm: { roles: 'reader', 'client-scopes': 'orders' }, client: { roles: 'viewer' } };
  // and, as any ledger, named in the record's field list.
  const fields = 'realmforge.dev/managed-fields';
  const expected = (was: Obj, what: Record<string, string>, also: string[] = []) => {
    const listed = Object.fromEntries(
      Object.entries(what).map(([k, v]) => [`realmforge.dev/managed-${k}`, v]),
    );
    const named = [
      ...String(was[fields]).split(','),
      ...Object.keys(listed).map((k) => `attributes/${k}`),
      ...also,
    ];
    return { ...was, ...listed, [fields]: named.sort().join(',') };
  };
  // The current release also turns on the realm's change signal (admin events, kept a day) in that same update.
  const signal = ['adminEventsEnabled', 'attributes/adminEventsExpiration'];
  assert.equal(marks(await realm()), expected(before.realm, items.realm, signal), 'the realm record');
  assert.equal(marks(await client()), expected(before.client, items.client), 'the client record');
  await resynced(3);
  // The release before also predates the realm's own identity: the current operator creates it (its client and
  // service account) besides; the record's writes are the updates of the realm and of the client, no item's.
  const put = (path: string) =>
    current.counter('realmforge_keycloak_api_path_requests_total', { method: 'PUT', path });
  // The realm's update carries its fields (the change signal this release turns on among them); the record's
  // item lists (roles, client scopes) follow in the late write after the items are read: at most two.
  const realmPuts = await put('/admin/realms/{realm}');
  assert.ok(realmPuts >= 1 && realmPuts <= 2, `the realm updated ${realmPuts} times`);
  assert.is(await put('/admin/realms/{realm}/clients/{id}'), 1, 'one update of the client');
  for (const item of ['/admin/realms/{realm}/roles-by-id/{id}', '/admin/realms/{realm}/client-scopes/{id}'])
    assert.is(await put(item), 0, `no item written: ${item}`);
  const migrated = await current.writes();
  await resynced(2);
  assert.is(await current.writes(), migrated, 'resyncs after the migration write nothing');
  assert.is(await clientLogin(), 200, 'the client still logs in');
});

test.run();
