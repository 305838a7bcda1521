// `realmforge dev up` (npm start) ends with a token obtained with the command it prints; `realmforge doctor` run
// as printed reports all OK on that healthy install and names the cause of each injected fault, and run with no
// flags (the KUBECONFIG dev up prints) covers every namespace without a FAIL that npm start itself causes; `dev down`
// (npm stop) leaves none of the processes it started running (checked by PID).
// e2e-environment: own
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { DoctorReport } from '../../generated/types/operator/doctor-report.ts';
import { eventually, type TestEnv, testEnv } from '../../scripts/testenv/harness.ts';
import { databaseCluster, waitStatus } from '../../scripts/testenv/identity-fixtures.ts';
import { recordedKubeletPids } from '../../scripts/testenv/kubelet.ts';
import { grantSecretAccess } from '../../scripts/testenv/operator-process.ts';
import { alive } from '../../scripts/testenv/proc.ts';
import { readState } from '../../scripts/testenv/state.ts';

const root = join(import.meta.dirname, '..', '..');
const devDir = mkdtempSync(join(tmpdir(), 'realmforge-dev-e2e-'));
const devEnv: NodeJS.ProcessEnv & { REALMFORGE_DEV_STATE: string } = {
  ...process.env,
  REALMFORGE_DEV_STATE: join(devDir, 'state.json'),
};
delete devEnv.REALMFORGE_TESTENV_STATE;

function sh(command: string, env = devEnv): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('close', (code) => resolve({ code: code ?? 1, out, err }));
  });
}

/** PIDs of the processes whose command line names `dir` (Keycloak's JVM, PostgreSQL, the operator's kubeconfig). */
function processesUnder(dir: string): string[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid)
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(dir);
      } catch {
        return false;
      }
    });
}

const realmforge = `${JSON.stringify(process.execPath)} bin/realmforge.js`;
let upOutput = '';
let env: TestEnv;

/** The printed doctor command, run with --json. */
async function doctor(): Promise<{ code: number; report: DoctorReport }> {
  const line = upOutput.split('\n').find((l) => l.trim().startsWith('diagnose'));
  assert.ok(line, 'dev up printed no doctor command');
  const command = (line as string)
    .trim()
    .replace(/^diagnose\s+/, '')
    .replace('npx realmforge', realmforge);
  const r = await sh(`${command} --json`);
  assert.is(r.err, '', r.err);
  return { code: r.code, report: JSON.parse(r.out) as DoctorReport };
}

async function expectFail(subject: string, cause: RegExp): Promise<void> {
  const { code, report } = await doctor();
  const check = report.checks.find((c) => c.subject === subject && c.status === 'FAIL');
  const failed = report.checks.filter((c) => c.status === 'FAIL').map((c) => `${c.subject}: ${c.message}`);
  assert.ok(check, `no FAIL on ${subject}; FAILs: ${JSON.stringify(failed)}`);
  assert.match(`${check?.message} ${check?.cause}`, cause);
  assert.ok(check?.fix);
  assert.is(code, 1);
}

test('dev up: Ready, and the printed command obtains a token', async () => {
  const started = Date.now();
  const r = await sh(`${realmforge} dev up`);
  upOutput = r.out;
  assert.is(r.code, 0, `${r.out}\n${r.err}`);
  console.log(`dev up: ready in ${Math.round((Date.now() - started) / 1000)} s (the cache was warm)`);
  console.log(
    r.out
      .split('\n')
      .filter((l) => /^\[|^\s+\d+s\s/.test(l))
      .join('\n'),
  ); // phases, no commands
  for (const kind of ['IdentityServer', 'IdentityRealm', 'IdentityClient'])
    assert.match(r.out, new RegExp(`${kind} \\S+\\s+Ready`), `${kind} never shown Ready`);
  const curl = r.out.split('\n').find((l) => l.startsWith('curl '));
  assert.ok(curl, 'no token command printed');
  const token = await sh(curl as string);
  const body = JSON.parse(token.out);
  assert.type(body.access_token, 'string', token.out);
  const claims = JSON.parse(Buffer.from(body.access_token.split('.')[1], 'base64url').toString('utf8'));
  assert.is(claims.azp, 'shop-web');
  process.env.REALMFORGE_TESTENV_STATE = devEnv.REALMFORGE_DEV_STATE;
  process.env.REALMFORGE_TESTENV_REQUIRED = '1';
  env = await testEnv();
});

test('doctor: all OK on the healthy install', async () => {
  const { code, report } = await doctor();
  assert.equal(
    report.checks.filter((c) => c.status !== 'OK'),
    [],
  );
  assert.is(code, 0);
  assert.ok(report.checks.length >= 14, `only ${report.checks.length} checks`);
  const cache = report.checks.find((c) => c.subject.startsWith('Keycloak realms cache of'));
  assert.match(
    cache?.message ?? '',
    /^[1-9]\d* entries, none evicted$/,
    "Keycloak's own realms cache series",
  );
});

test('doctor with no flags, KUBECONFIG exported as dev up says: every namespace, no FAIL that npm start causes', async () => {
  const kubeconfig = /export KUBECONFIG=(\S+)/.exec(upOutput)?.[1];
  assert.ok(kubeconfig, 'dev up printed no KUBECONFIG');
  const plain: typeof devEnv = { ...devEnv, KUBECONFIG: kubeconfig };
  delete plain.REALMFORGE_ENDPOINT_MAP;
  const text = await sh(`${realmforge} doctor`, plain);
  assert.match(
    text.out,
    /^realmforge doctor: \S+ \(every namespace: [^)]*\bidentity\b[^)]*\bshop\b/,
    text.out,
  );
  assert.match(text.out, /as recorded by realmforge dev/, text.out);
  assert.match(text.out, /\n\d+ OK, \d+ WARN, 0 FAIL\n$/, text.out);
  assert.is(text.code, 0, text.err);
  const json = await sh(`${realmforge} doctor --json`, plain);
  const report = JSON.parse(json.out) as DoctorReport;
  assert.equal(
    report.checks.filter((c) => c.status === 'FAIL'),
    [],
  );
  assert.ok(
    report.checks.some((c) => c.subject === 'IdentityClient shop/shop-web'),
    'the client is checked',
  );
});

test('doctor fault: a client namespace without the binding', async () => {
  const path = '/apis/rbac.authorization.k8s.io/v1/namespaces/shop/rolebindings/realmforge-operator-access';
  assert.is((await env.request('DELETE', path)).status, 200);
  await expectFail(
    'namespace shop',
    /no RoleBinding in shop binds ClusterRole keycloak-operator-namespace-access/,
  );
  await grantSecretAccess(env, 'shop');
});

test("doctor fault: the operator's ClusterRole missing a verb", async () => {
  const path = '/apis/rbac.authorization.k8s.io/v1/clusterroles/keycloak-operator';
  const role = (await env.request('GET', path)).body;
  const original = structuredClone(role);
  const rule = role.rules.find((r: { resources: string[] }) => r.resources.includes('deployments'));
  rule.verbs = rule.verbs.filter((v: string) => v !== 'delete');
  assert.is((await env.request('PUT', path, role)).status, 200);
  await expectFail('delete deployments.apps', /ClusterRole keycloak-operator lacks this verb/);
  delete original.metadata.resourceVersion; // an unconditional update puts the rules back
  assert.is((await env.request('PUT', path, original)).status, 200);
});

test('doctor fault: a client in a namespace its realm does not grant', async () => {
  await env.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'elsewhere' } } as never);
  await grantSecretAccess(env, 'elsewhere');
  await env.apply({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityClient',
    metadata: { name: 'stray', namespace: 'elsewhere' },
    spec: { realmRef: { name: 'customers', namespace: 'identity' }, type: 'confidential' },
  } as never);
  await waitStatus(
    env,
    'identityclients',
    'elsewhere',
    'stray',
    60_000,
    (s) => s.reason === 'NamespaceNotAuthorized',
    'NamespaceNotAuthorized',
  );
  await expectFail('IdentityClient elsewhere/stray', /NamespaceNotAuthorized/);
});

test('doctor fault: a realm in a namespace its server does not grant (when the CRD has realmAuthorizationGrants)', async () => {
  const crd = (
    await env.request(
      'GET',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/identityservers.realmforge.dev',
    )
  ).body;
  if (!JSON.stringify(crd).includes('realmAuthorizationGrants')) {
    console.log('skipped: this IdentityServer CRD has no realmAuthorizationGrants yet');
    return;
  }
  const server = {
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityServer',
    metadata: { name: 'keycloak-minimal', namespace: 'identity' },
  };
  await env.request(
    'PATCH',
    '/apis/realmforge.dev/v1/namespaces/identity/identityservers/keycloak-minimal?fieldManager=realmforge-e2e-grants',
    { ...server, spec: { realmAuthorizationGrants: ['identity'] } },
    'application/apply-patch+yaml',
  );
  await env.apply({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityRealm',
    metadata: { name: 'stray', namespace: 'elsewhere' },
    spec: { serverRef: { name: 'keycloak-minimal', namespace: 'identity' } },
  } as never);
  await waitStatus(
    env,
    'identityrealms',
    'elsewhere',
    'stray',
    60_000,
    (st) => st.reason === 'NamespaceNotAuthorized',
    'NamespaceNotAuthorized',
  );
  await expectFail(
    'IdentityRealm elsewhere/stray',
    /NamespaceNotAuthorized namespace elsewhere is not in spec\.realmAuthorizationGrants/,
  );
});

test("doctor warns: Keycloak's realms cache too small for what it holds", async () => {
  if (process.env.REALMFORGE_KEYCLOAK === '25') {
    console.log('skipped: Keycloak 25 has no cache-embedded-realms-max-count option');
    return;
  }
  const subject = 'Keycloak realms cache of IdentityServer identity/keycloak-minimal';
  const before = (await doctor()).report.checks.find((c) => c.subject === subject);
  assert.is(before?.status, 'OK', 'the default cache holds the dev realms');
  const patched = await env.request(
    'PATCH',
    '/apis/realmforge.dev/v1/namespaces/identity/identityservers/keycloak-minimal?fieldManager=realmforge-e2e-cache',
    {
      apiVersion: 'realmforge.dev/v1',
      kind: 'IdentityServer',
      metadata: { name: 'keycloak-minimal', namespace: 'identity' },
      spec: { additionalOptions: [{ name: 'cache-embedded-realms-max-count', value: '50' }] },
    },
    'application/apply-patch+yaml',
  );
  assert.is(patched.status, 200, JSON.stringify(patched.body));
  // Keycloak restarts with the small cache; the operator's resyncs and readiness reads then fill it past 50.
  const check = await eventually('a realms cache WARN', 240_000, async () =>
    (await doctor()).report.checks.find((c) => c.subject === subject && c.status === 'WARN'),
  );
  assert.match(check.message, /^full: [1-9]\d* entries evicted, \d+ held$/);
  assert.match(check.fix ?? '', /cache-embedded-realms-max-count above \d+/);
});

test('doctor fault: a server whose database cluster is missing', async () => {
  assert.is(
    (await env.request('DELETE', '/apis/postgresql.cnpg.io/v1/namespaces/identity/clusters/keycloak-db'))
      .status,
    200,
  );
  await expectFail('Cluster identity/keycloak-db', /no CloudNativePG Cluster keycloak-db in identity/);
  await databaseCluster(env, 'identity', 'keycloak-db');
});

test('doctor fault: a CRD deleted', async () => {
  const path = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/identityclients.realmforge.dev';
  assert.is((await env.request('DELETE', path)).status, 200);
  await expectFail('CustomResourceDefinition identityclients.realmforge.dev', /does not exist|being deleted/);
});

test('doctor fault: the operator not running', async () => {
  const info = JSON.parse(readFileSync(join(devDir, 'operator.json'), 'utf8'));
  process.kill(info.operatorPid, 'SIGTERM');
  await eventually('the operator to stop', 30_000, async () => (alive(info.operatorPid) ? undefined : true));
  await expectFail(`operator at ${info.operatorUrl}`, /does not answer/);
});

test('dev down: every process dev up started is gone (by PID), and its state with them', async () => {
  const state = readState(devEnv.REALMFORGE_DEV_STATE);
  assert.ok(state, 'no dev state file');
  const pids = [
    ...(state?.daemons ?? []).map((d) => d.pid),
    ...Object.values(recordedKubeletPids(state?.runDir ?? '')),
  ];
  assert.ok(pids.length >= 6, `only ${pids.length} PIDs recorded: ${JSON.stringify(state?.daemons)}`);
  const r = await sh(`${realmforge} dev down`);
  assert.is(r.code, 0, r.err);
  assert.equal(pids.filter(alive), [], 'still running');
  assert.equal(
    processesUnder(state?.runDir ?? '/nonexistent'),
    [],
    'a process (a child of a recorded one) still uses the run directory',
  );
  assert.not.ok(existsSync(devEnv.REALMFORGE_DEV_STATE), 'the state file is left');
  assert.not.ok(existsSync(state?.runDir ?? ''), 'the run directory is left');
});

test.run();
