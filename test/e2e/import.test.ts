// `realmforge import` against Keycloak's own import (Keycloak 26 by default, 25 with REALMFORGE_KEYCLOAK=25): for
// each realm export of a corpus (helpers/import-corpus.ts: Keycloak's default realm, the production example, a
// realm with every section, and realms of other e2e suites, each exported from Keycloak), Keycloak imports the JSON
// as realm A; the YAML `realmforge import` prints is applied and the real operator (its own ServiceAccount, an
// existing Keycloak) creates realm B; the two partial exports are compared after dropping ids and the operator's
// marks (helpers/import-differential.ts). The differences left are the ones listed in docs/import.md, and each is
// also named on import's stderr, never silent. Then the live read, and moving in: import, observe, adopt, plan.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAllDocuments, stringify as stringifyYaml } from 'yaml';
import { type TestEnv, testEnv } from '../../scripts/testenv/harness.ts';
import { waitStatus } from '../../scripts/testenv/identity-fixtures.ts';
import { type Ldap, startLdap } from '../../scripts/testenv/ldap.ts';
import {
  grantSecretAccess,
  installOperatorRbac,
  type OperatorProcess,
  startOperator,
} from '../../scripts/testenv/operator-process.ts';
import { keytabMountPath } from '../../src/operator/compile/kerberos-keytabs.ts';
import { corpusTests } from './helpers/import-corpus.ts';
import { importDifferential, run, runImport } from './helpers/import-differential.ts';
import { giveNamedGrant, keycloakAdminApi } from './helpers/keycloak-admin.ts';
import { changeSignalDiff, comparable, realmDiff } from './helpers/realm-diff.ts';

let env: TestEnv;
let operator: OperatorProcess;
let ns: string;
let admin: ReturnType<typeof keycloakAdminApi>;
let major = 26;
/** The federation suite's directory (its fixture): the LDAP provider of the federation realm connects to it. */
let ldap: Ldap;
const dir = mkdtempSync(join(tmpdir(), 'realmforge-import-'));
const made: string[] = [];
const suite = () => ({ env, admin, ns, dir, made, major, ldap });
const differ = importDifferential(suite);
const { applyReady, exportOf, measureKeycloakImport } = differ;

test.before(async () => {
  env = await testEnv();
  const kc = env.state.keycloak;
  if (!kc) throw new Error('the test environment has no harness Keycloak');
  major = Number.parseInt(kc.version, 10);
  admin = keycloakAdminApi(
    () => kc.httpUrl,
    async () => ({ username: kc.adminUsername, password: kc.adminPassword }),
  );
  await installOperatorRbac(env);
  ldap = await startLdap(mkdtempSync(join(tmpdir(), 'realmforge-ldap-')), [], {});
  ns = await env.namespace('imp');
  await grantSecretAccess(env, ns);
  await env.apply({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'harness-admin', namespace: ns },
    stringData: { username: kc.adminUsername, password: kc.adminPassword },
  } as never);
  operator = await startOperator(env);
  await applyReady([
    {
      apiVersion: 'realmforge.dev/v1',
      kind: 'IdentityServer',
      metadata: { name: 'existing', namespace: ns },
      spec: {
        external: { url: kc.httpUrl, credentialsSecret: 'harness-admin' },
        // The federation realm's Kerberos provider names keytab sso (a path on that Keycloak's host).
        kerberos: { keytabs: [{ name: 'sso', path: keytabMountPath('sso') }] },
      },
    },
  ]);
  await waitStatus(env, 'identityservers', ns, 'existing', 240_000, (s) => s.phase === 'Ready', 'Ready');
  await measureKeycloakImport();
});
test.after(async () => {
  await operator?.stop();
  await ldap?.stop();
  for (const realm of made) await admin?.('DELETE', `/${realm}`).catch(() => undefined);
  await env?.cleanup();
});

corpusTests(suite, differ);

test('a live realm read through the admin API imports as its export file does', async () => {
  const kc = env.state.keycloak as NonNullable<TestEnv['state']['keycloak']>;
  const file = join(dir, 'src-production.json');
  writeFileSync(file, JSON.stringify(await exportOf('src-production')));
  const args = ['--namespace', 'apps', '--server', 'existing'];
  const fromFile = await runImport([file, ...args]);
  assert.is(fromFile.code, 0, fromFile.stderr);
  const credentials = join(dir, 'admin.yaml');
  writeFileSync(credentials, `username: ${kc.adminUsername}\npassword: ${kc.adminPassword}\n`);
  const live = await runImport([
    '--keycloak-url',
    kc.httpUrl,
    '--realm',
    'src-production',
    '--credentials',
    credentials,
    ...args,
  ]);
  assert.is(live.code, 0, live.stderr);
  assert.is(live.stdout, fromFile.stdout);
  const fromSecret = await runImport([
    '--keycloak-url',
    kc.httpUrl,
    '--realm',
    'src-production',
    '--credentials-secret',
    `${ns}/harness-admin`,
    '--kubeconfig',
    env.state.kubeconfig,
    ...args,
  ]);
  assert.is(fromSecret.code, 0, fromSecret.stderr);
  assert.is(fromSecret.stdout, fromFile.stdout);
  const missing = await runImport([
    '--keycloak-url',
    kc.httpUrl,
    '--realm',
    'no-such-realm',
    '--credentials',
    credentials,
    ...args,
  ]);
  assert.is(missing.code, 4, missing.stderr);
  assert.is(missing.stdout, '');
  assert.match(missing.stderr, 'has no realm "no-such-realm"');
});

/** Runs `realmforge plan` in this process against the harness Keycloak. */
function runPlan(paths: string[], credentials: string) {
  const kc = env.state.keycloak as NonNullable<TestEnv['state']['keycloak']>;
  return run(['plan', ...paths, '--keycloak-url', kc.httpUrl, '--credentials', credentials]);
}

const realmStatus = (name: string, check: (s: any) => boolean, what: string) =>
  waitStatus(env, 'identityrealms', ns, name, 180_000, check, what);

test("moving in: a hand-made realm imported, observed, adopted with only the operator's marks and identity, planned, drift-reverted and paused", async () => {
  const kc = env.state.keycloak as NonNullable<TestEnv['state']['keycloak']>;
  made.push('moved');
  await admin('POST', '', {
    realm: 'moved',
    enabled: true,
    displayName: 'Moved in',
    roles: { realm: [{ name: 'viewer', description: 'Reads' }] },
    groups: [{ name: 'staff' }],
    clients: [{ clientId: 'portal', redirectUris: ['https://portal.example.com/*'], publicClient: true }],
  });
  const credentials = join(dir, 'moved-admin.yaml');
  writeFileSync(credentials, `username: ${kc.adminUsername}\npassword: ${kc.adminPassword}\n`);
  const clients = await env.namespace('imp-moved');
  await grantSecretAccess(env, clients);
  const imported = await runImport([
    '--keycloak-url',
    kc.httpUrl,
    '--realm',
    'moved',
    '--credentials',
    credentials,
    '--namespace',
    clients,
    '--realm-namespace',
    ns,
    '--server',
    'existing',
  ]);
  assert.is(imported.code, 0, imported.stderr);
  const objects = parseAllDocuments(imported.stdout).map((d) => d.toJSON());
  const realm = objects.find((o) => o.kind === 'IdentityRealm');
  assert.is(realm.spec.adoptExisting, true);
  const before = comparable(await exportOf('moved'), 'moved');

  // Observe first: nothing is written, and an exact import differs in nothing.
  for (const o of objects) if (o.spec) o.spec.managementPolicy = 'Observe';
  for (const o of objects) await env.apply(o as never);
  const first = await realmStatus(
    'moved',
    (x) => x.reason === 'RealmGrantMissing' || x.phase === 'Ready' || x.phase === 'Pending',
    'a grant or an observation',
  );
  if (first.status.reason === 'RealmGrantMissing') await giveNamedGrant(admin, 'moved', first.status.message);
  const observed = await realmStatus('moved', (x) => x.reason === 'Observed', 'Observed');
  assert.is(observed.status.differences.total, 0, JSON.stringify(observed.status.differences));
  assert.equal(
    realmDiff(before, comparable(await exportOf('moved'), 'moved')),
    [],
    'observing wrote nothing',
  );

  // Manage: adopted; the realm is as it was but for the operator's marks and its own identity client.
  const files = join(dir, 'moved');
  mkdirSync(files, { recursive: true });
  for (const o of objects) if (o.spec) o.spec.managementPolicy = 'Manage';
  writeFileSync(join(files, 'resources.yaml'), objects.map((o) => stringifyYaml(o)).join('---\n'));
  for (const o of objects) await env.apply(o as never);
  await realmStatus('moved', (x) => x.phase === 'Ready' && x.reason !== 'Observed', 'managed and Ready');
  await waitStatus(
    env,
    'identityclients',
    clients,
    'portal',
    180_000,
    (x) => x.reason === 'Ready',
    'adopted',
  );
  const after = comparable(await exportOf('moved'), 'moved');
  assert.equal(
    realmDiff(before, after),
    changeSignalDiff,
    'adoption changed nothing but the marks, the identity and the change signal (admin events on, kept a day)',
  );

  // plan: nothing to change; three fields changed in the files are exactly three changes, exit 2.
  const unchanged = await runPlan([files], credentials);
  assert.is(unchanged.code, 0, unchanged.stdout + unchanged.stderr);
  assert.match(unchanged.stdout, 'No changes');
  const renamed = structuredClone(realm);
  renamed.spec.displayName = 'Moved in (renamed)';
  renamed.spec.login = { ...renamed.spec.login, registrationAllowed: true };
  renamed.spec.themes = { ...renamed.spec.themes, login: 'keycloak' };
  const edited = objects.map((o) => (o === realm ? renamed : o));
  writeFileSync(join(files, 'resources.yaml'), edited.map((o) => stringifyYaml(o)).join('---\n'));
  const changed = await runPlan([files], credentials);
  assert.is(changed.code, 2, changed.stdout + changed.stderr);
  const lines = changed.stdout.split('\n').filter((l) => l.startsWith('  '));
  assert.equal(lines.length, 1, changed.stdout);
  assert.match(lines[0] ?? '', 'displayName: "Moved in" -> "Moved in (renamed)"');
  assert.match(lines[0] ?? '', 'registrationAllowed: false -> true');
  assert.match(lines[0] ?? '', 'loginTheme: "keycloak"');
  assert.is((lines[0] ?? '').split(', ').length, 3, lines[0]);
  assert.is((await admin('GET', '/moved')).displayName, 'Moved in', 'plan wrote nothing');

  // Observed again, a hand edit is reported and left; switched back to Manage, it is reverted.
  const applyPolicy = async (managementPolicy: string) => {
    const spec = { ...realm.spec, managementPolicy };
    await env.apply({ ...realm, spec } as never);
  };
  await applyPolicy('Observe');
  await realmStatus('moved', (x) => x.reason === 'Observed', 'Observed again');
  await admin('PUT', '/moved', { displayName: 'Edited while observed' });
  const reported = await realmStatus(
    'moved',
    (x) => x.reason === 'ObservedDifferences',
    'the hand edit reported',
  );
  assert.equal(reported.status.differences.changes, [
    'update moved: displayName: "Edited while observed" -> "Moved in"',
  ]);
  assert.is((await admin('GET', '/moved')).displayName, 'Edited while observed', 'observed: left as it is');
  await applyPolicy('Manage');

  // Drift is reverted from then on; paused, it is kept until the annotation goes.
  await admin('PUT', '/moved', { displayName: 'Edited by hand' });
  for (let i = 0; i < 60 && (await admin('GET', '/moved')).displayName !== 'Moved in'; i++)
    await new Promise((r) => setTimeout(r, 1000));
  assert.is((await admin('GET', '/moved')).displayName, 'Moved in', 'reverted');
  const paused = {
    ...realm,
    metadata: { ...realm.metadata, annotations: { 'realmforge.dev/paused': 'true' } },
  };
  await env.apply(paused as never);
  await realmStatus('moved', (x) => x.reason === 'ReconcilePaused', 'ReconcilePaused');
  await admin('PUT', '/moved', { displayName: 'Edited while paused' });
  const reconciles = await operator.counter('realmforge_reconcile_total', {
    kind: 'IdentityRealm',
    result: 'success',
  });
  for (
    let i = 0;
    i < 30 &&
    (await operator.counter('realmforge_reconcile_total', { kind: 'IdentityRealm', result: 'success' })) <
      reconciles + 3;
    i++
  )
    await new Promise((r) => setTimeout(r, 1000));
  assert.ok(
    (await operator.counter('realmforge_reconcile_total', { kind: 'IdentityRealm', result: 'success' })) >=
      reconciles + 3,
    'resyncs ran while paused',
  );
  assert.is((await admin('GET', '/moved')).displayName, 'Edited while paused', 'paused: kept');
});

test.run();
