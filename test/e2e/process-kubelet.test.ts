// The process kubelet runs the Keycloak Deployment the operator compiles: env from the pod template, secrets
// through the API, the database on the environment's PostgreSQL; Deployment status comes from the real controllers.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubernetesObject, V1Deployment } from '@kubernetes/client-node';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, type TestEnv, testEnv } from '../../scripts/testenv/harness.ts';
import { keycloakVersions } from '../../scripts/testenv/versions.ts';
import { loadEndpointMap } from '../../src/operator/runtime/endpoint-map.ts';

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after(async () => {
  await env?.cleanup();
});

const version = keycloakVersions[process.env.REALMFORGE_KEYCLOAK === '25' ? '25' : '26'].version;
const admin = { username: 'admin', password: 'e2e-admin-password' };

/** Applies an IdentityServer, compiles it with the operator's compiler and applies every object it returns. */
async function deployCompiled(
  ns: string,
  name: string,
  mutate: (objects: KubernetesObject[]) => void = () => {},
) {
  const { compileIdentityServer } = await import('../../src/operator/compile/identity-server.ts');
  const server = await env.apply({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityServer',
    metadata: { name, namespace: ns },
    // A database of its own per server: the environment's CNPG stand-in creates it from the compiled Database.
    spec: {
      image: { tag: version },
      database: { cluster: 'keycloak-db', name: `kc_${ns.replaceAll('-', '_')}` },
    },
  } as KubernetesObject);
  const database = { username: env.state.postgres.user, password: env.state.postgres.password };
  const objects = compileIdentityServer(server as never, { admin, database }) as KubernetesObject[];
  mutate(objects);
  for (const o of objects) await env.apply(o);
  return objects;
}

const deploymentOf = (objects: KubernetesObject[]) =>
  objects.find((o) => o.kind === 'Deployment') as V1Deployment;

/** The last lines of the kubelet's Keycloak logs for a namespace, to explain a failure. */
function keycloakLogs(ns: string): string {
  const dir = env.state.runDir;
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith(`kubelet-${ns}_`)) : [];
  const kubelet = existsSync(join(dir, 'kubelet.log'))
    ? readFileSync(join(dir, 'kubelet.log'), 'utf8').split('\n').slice(-15)
    : [];
  return [
    ...files.flatMap((f) => [
      `--- ${f}`,
      ...readFileSync(join(dir, f), 'utf8').trimEnd().split('\n').slice(-20),
    ]),
    '--- kubelet.log',
    ...kubelet,
  ].join('\n');
}

async function readyReplicas(ns: string, name: string): Promise<number> {
  const d = await env.apps.readNamespacedDeployment({ namespace: ns, name });
  return d.status?.readyReplicas ?? 0;
}

test('the compiled Deployment runs as a process, connects to PostgreSQL and becomes ready and available', async () => {
  const ns = await env.namespace('kc-ok');
  const objects = await deployCompiled(ns, 'idp');
  const deployment = deploymentOf(objects);
  assert.is(deployment.metadata?.labels?.['app.kubernetes.io/name'], 'keycloak');
  const status = await eventually(`Deployment ${ns}/idp to be ready\n${'(see below)'}`, 300_000, async () => {
    const d = await env.apps.readNamespacedDeployment({ namespace: ns, name: deployment.metadata!.name! });
    return d.status?.readyReplicas === 1 && d.status?.availableReplicas === 1 ? d.status : undefined;
  }).catch((e) => {
    throw new Error(`${e.message}\n${keycloakLogs(ns)}`);
  });
  assert.is(status.replicas, 1);

  const pod = (await env.core.listNamespacedPod({ namespace: ns })).items[0];
  assert.is(pod.spec?.nodeName, 'realmforge-process-kubelet');
  assert.ok(pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));

  // The operator reaches the Service <name>.<ns>.svc on 9000 and 8080 through the endpoint map.
  const map = loadEndpointMap(env.state.endpointMapFile);
  const service = objects.find(
    (o) =>
      o.kind === 'Service' &&
      (o as { spec?: { ports?: { port: number }[] } }).spec?.ports?.some((p) => p.port === 9000),
  );
  assert.ok(service, 'the compile returns a Service exposing 9000');
  const base = `${service.metadata!.name}.${ns}.svc`;
  const healthUrl = map.resolve(`http://${base}:9000/health/ready`);
  assert.match(healthUrl, /^http:\/\/127\.0\.0\.1:\d+\/health\/ready$/);
  assert.is(((await (await fetch(healthUrl)).json()) as { status: string }).status, 'UP');
  const tokenUrl = map.resolve(`http://${base}:8080/realms/master/protocol/openid-connect/token`);
  const body = new URLSearchParams({ grant_type: 'password', client_id: 'admin-cli', ...admin });
  const token = await fetch(tokenUrl, { method: 'POST', body });
  assert.is(token.status, 200, 'the bootstrap admin from <name>-admin-credentials gets a token');

  // The database is the environment's PostgreSQL, reached through <cluster>-rw.<ns>.svc:5432, created from the
  // compiled CNPG Database object.
  const database = objects.find((o) => o.kind === 'Database')!;
  const applied = await env.request(
    'GET',
    `/apis/postgresql.cnpg.io/v1/namespaces/${database.metadata!.namespace}/databases/${database.metadata!.name}`,
  );
  assert.is(applied.body.status?.applied, true, 'the CNPG Database was applied');
  const env0 = deploymentOf(objects).spec!.template.spec!.containers[0].env!;
  assert.match(env0.find((e) => e.name === 'KC_DB_URL_HOST')!.value!, /^keycloak-db-rw\.[a-z0-9-]+\.svc$/);

  // When the process dies, readiness is taken back and the Deployment's ready replicas drop.
  const pids = JSON.parse(readFileSync(join(env.state.runDir, 'kubelet-pids.json'), 'utf8')) as Record<
    string,
    number
  >;
  const pid = pids[`${ns}/${pod.metadata!.name}`];
  assert.ok(pid, 'the kubelet records the PID of the pod');
  process.kill(-pid, 'SIGKILL');
  await eventually('ready replicas to drop after the process died', 30_000, async () =>
    (await readyReplicas(ns, deployment.metadata!.name!)) === 0 ? true : undefined,
  );
  // Readiness can drop (the health probe fails) one kubelet pass before the exit is noticed and counted.
  const after = await eventually('the restart to be counted', 30_000, async () => {
    const s = (await env.core.readNamespacedPod({ namespace: ns, name: pod.metadata!.name! })).status;
    return (s?.containerStatuses?.[0]?.restartCount ?? 0) >= 1 ? s : undefined;
  });
  assert.is(after?.containerStatuses?.[0]?.ready, false);
  assert.is(after?.containerStatuses?.[0]?.lastState?.terminated?.reason, 'Error');
});

test('a wrong environment variable in the Deployment keeps Keycloak from ever becoming ready', async () => {
  const ns = await env.namespace('kc-bad');
  const objects = await deployCompiled(ns, 'idp', (all) => {
    const container = deploymentOf(all).spec!.template.spec!.containers[0];
    const db = container.env!.find((e) => e.name === 'KC_DB_URL_DATABASE')!;
    db.value = 'no_such_database';
  });
  const name = deploymentOf(objects).metadata!.name!;
  const pod = await eventually('the Keycloak process to fail and be restarted', 240_000, async () => {
    const p = (await env.core.listNamespacedPod({ namespace: ns })).items[0];
    return (p?.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1 ? p : undefined;
  }).catch((e) => {
    throw new Error(`${e.message}\n${keycloakLogs(ns)}`);
  });
  assert.is(await readyReplicas(ns, name), 0);
  assert.is(pod.status?.containerStatuses?.[0]?.ready, false);
  // The restarted process logs afresh, so wait until it too has reached the database error.
  await eventually('the log to name the missing database', 120_000, async () =>
    /no_such_database/.test(keycloakLogs(ns)) ? true : undefined,
  );
});

test.run();
