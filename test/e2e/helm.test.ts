// The Helm charts in the real API server, following the README's "Install with Helm" step by step: bad values are
// refused by `helm install` with the schema's message and nothing is created; the operator chart installs its
// ServiceAccount, RBAC and Deployment under Helm's ownership; an operator started from the installed Deployment's
// own args and env, authenticated as the chart's ServiceAccount (so the chart's RBAC is what is exercised),
// reconciles an IdentityServer, a realm and a client installed with the client chart to Ready; `helm upgrade --set`
// raising the rate limits changes the Deployment's environment and the limits an operator started from it reports.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse, stringify } from 'yaml';
import { eventually, type TestEnv, testEnv } from '../../scripts/testenv/harness.ts';
import { removeUnownedCopies } from '../../scripts/testenv/helm-ownership.ts';
import { databaseCluster, keycloakVersion, kubectl } from '../../scripts/testenv/identity-fixtures.ts';
import { restPath } from '../../scripts/testenv/kube-request.ts';
import { podCommand } from '../../scripts/testenv/operator-pod.ts';
import {
  type OperatorProcess,
  operatorAccount,
  operatorKubeconfig,
  operatorNamespace,
  startOperator,
} from '../../scripts/testenv/operator-process.ts';
import { clientChart, helm, operatorChart, parseObjects, repo, template } from '../chart/helm-cli.ts';
import { heredocOf, readmeSection, shellCommands } from '../helpers/readme-commands.ts';

const release = { name: 'realmforge-operator', namespace: operatorNamespace };
const suffix = Math.random().toString(36).slice(2, 8);
const identity = `identity-${suffix}`;
const shop = `shop-${suffix}`;
const readme = readmeSection('Install with Helm');
const scratch = mkdtempSync(join(tmpdir(), 'realmforge-helm-e2e-'));

let env: TestEnv;
let operator: OperatorProcess | undefined;
/** The README-form of every command this suite ran, in order. */
const transcript: string[] = [];

/** The README's `identity` and `shop` namespaces as this run's; chart and example paths as local files. */
function local(arg: string): string {
  for (const [name, ns] of [
    ['identity', identity],
    ['shop', shop],
  ]) {
    if (arg === name) return ns;
    if (arg.endsWith(`=${name}`)) return `${arg.slice(0, -name.length)}${ns}`;
  }
  if (arg === './chart/realmforge-operator') return operatorChart;
  if (arg === './chart/realmforge-client') return clientChart;
  if (arg === 'examples/identityserver-minimal.yaml') return localServerFile();
  return arg;
}

/** The README's example server in this run's namespace, on the environment's Keycloak and its own database. */
function localServerFile(): string {
  const server = parse(readFileSync(join(repo, 'examples', 'identityserver-minimal.yaml'), 'utf8'));
  assert.is(server.metadata.namespace, 'identity', 'the README applies the example in namespace identity');
  server.metadata.namespace = identity;
  server.spec.image.tag = keycloakVersion;
  server.spec.database.name = `kc_helm_${suffix}`;
  const file = join(scratch, 'identityserver.yaml');
  writeFileSync(file, stringify(server));
  return file;
}

/** Runs a README command (helm or kubectl) in this run's namespaces and records it; fails with its output. */
async function sh(command: string, input?: string): Promise<string> {
  transcript.push(command);
  const [tool, ...args] = command.split(' ');
  const localArgs = args.map(local);
  const r =
    tool === 'helm'
      ? await helm(localArgs, { KUBECONFIG: env.state.kubeconfig })
      : await kubectl(env, localArgs, input);
  if (r.code !== 0) throw new Error(`${command} failed (${r.code}):\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** Starts the operator exactly as a pod of the installed Deployment would run, as the chart's ServiceAccount. */
async function operatorFromDeployment(): Promise<{
  process: OperatorProcess;
  podName: string;
  port?: number;
}> {
  const pod = await podCommand(env, operatorNamespace, 'realmforge-operator');
  assert.is(pod.serviceAccount, operatorAccount);
  if (pod.busyMetricsPort) {
    process.stderr.write(
      `helm e2e: port ${pod.busyMetricsPort} is busy here, the operator uses --metrics-port=0\n`,
    );
  }
  const started = await startOperator(env, {
    containerArgs: pod.args,
    env: pod.env,
    kubeconfig: await operatorKubeconfig(env),
  });
  return { process: started, podName: pod.podName, port: pod.busyMetricsPort ? undefined : 8081 };
}

/** The operator's first log line, with its effective settings. */
function startupLine(o: OperatorProcess): Record<string, any> {
  const line = o.logs().find((l) => l.msg === 'operator started');
  if (!line) throw new Error('the operator logged no "operator started" line');
  return line;
}

const deploymentEnv = async () => {
  const d = await env.apps.readNamespacedDeployment({
    namespace: operatorNamespace,
    name: 'realmforge-operator',
  });
  const vars = d.spec?.template?.spec?.containers?.[0]?.env ?? [];
  return {
    generation: d.metadata?.generation ?? 0,
    values: Object.fromEntries(vars.filter((e) => e.value !== undefined).map((e) => [e.name, e.value])),
  };
};

test.before(async () => {
  env = await testEnv();
  // A release left by an interrupted run, and the dist-manifests/ copies other suites applied, would make
  // `helm install` refuse: remove them so the chart creates every object itself.
  await helm(['uninstall', release.name, '-n', release.namespace, '--ignore-not-found', '--wait'], {
    KUBECONFIG: env.state.kubeconfig,
  });
  const removed = await removeUnownedCopies(env, parseObjects(await template(operatorChart)), release);
  if (removed.length) process.stderr.write(`helm e2e: removed copies not owned by the release: ${removed}\n`);
});

test.after(async () => {
  const kubeEnv = { KUBECONFIG: env?.state.kubeconfig ?? '' };
  if (env) {
    // Deleted while an operator runs, so that its finalizers are released and the namespaces really go.
    await helm(['uninstall', 'shop-web', '-n', shop, '--ignore-not-found'], kubeEnv);
    for (const ns of [shop, identity]) await env.request('DELETE', `/api/v1/namespaces/${ns}`);
  }
  if (env && operator) {
    await eventually('the realm and the client to be deleted', 60_000, async () => {
      const left = await env.request('GET', `/apis/realmforge.dev/v1/namespaces/${identity}/identityrealms`);
      return left.status === 404 || left.body?.items?.length === 0 ? true : undefined;
    }).catch(() => undefined);
  }
  await operator?.stop();
  if (env) await helm(['uninstall', release.name, '-n', release.namespace, '--ignore-not-found'], kubeEnv);
});

const badValues = [
  {
    what: 'a negative TPS',
    set: ['--set', 'rateLimits.global.tps=-1'],
    message: "- at '/rateLimits/global/tps': exclusiveMinimum: got -1, want 0",
  },
  {
    what: 'zero replicas with leader election',
    set: ['--set', 'replicas=0', '--set', 'leaderElection.enabled=true'],
    message: "- at '/replicas': minimum: got 0, want 1",
  },
  {
    what: 'a wrong type',
    set: ['--set-string', 'replicas=two'],
    message: "- at '/replicas': got string, want integer",
  },
];

test('bad values fail helm install with the schema message, and nothing reaches the cluster', async () => {
  const ns = `helm-bad-${suffix}`;
  for (const bad of badValues) {
    const r = await helm(['install', 'bad', operatorChart, '-n', ns, '--create-namespace', ...bad.set], {
      KUBECONFIG: env.state.kubeconfig,
    });
    assert.is.not(r.code, 0, `helm install accepted ${bad.what}`);
    assert.match(r.stderr, /values don't meet the specifications of the schema/, bad.what);
    assert.match(r.stderr, bad.message, `${bad.what}: ${r.stderr}`);
  }
  assert.is((await env.request('GET', `/api/v1/namespaces/${ns}`)).status, 404, 'no namespace was created');
  const releases = await env.request('GET', `/api/v1/namespaces/${ns}/secrets?labelSelector=owner%3Dhelm`);
  assert.is(releases.body?.items?.length ?? 0, 0, 'no release was recorded');
});

test('helm install of the operator chart: CRDs Established, and every object created and owned by the release', async () => {
  const out = await sh(
    'helm install realmforge-operator ./chart/realmforge-operator --namespace realmforge-system --create-namespace',
  );
  assert.match(out, /STATUS: deployed/);
  await sh(
    'kubectl wait --for=condition=Established crd/identityservers.realmforge.dev crd/identityrealms.realmforge.dev crd/identityclients.realmforge.dev',
  );
  // The CRDs the API server serves are the chart's (the environment installed the same generated files).
  for (const file of ['identityservers', 'identityrealms', 'identityclients']) {
    const chartCrd = parse(readFileSync(join(operatorChart, 'crds', `${file}.realmforge.dev.yaml`), 'utf8'));
    const live = await env.request(
      'GET',
      `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${file}.realmforge.dev`,
    );
    assert.equal(
      live.body.spec.versions.map((v: { schema: unknown }) => v.schema),
      chartCrd.spec.versions.map((v: { schema: unknown }) => v.schema),
      `${file}: the served schema is the chart's`,
    );
  }
  const manifest = await helm(['get', 'manifest', release.name, '-n', release.namespace], {
    KUBECONFIG: env.state.kubeconfig,
  });
  const objects = parseObjects(manifest.stdout);
  assert.equal(objects.map((o) => `${o.kind}/${o.metadata.name}`).sort(), [
    'ClusterRole/keycloak-operator',
    'ClusterRole/keycloak-operator-namespace-access',
    'ClusterRole/keycloak-realm-manager',
    'ClusterRoleBinding/keycloak-operator',
    'Deployment/realmforge-operator',
    'Role/realmforge-leader-election',
    'RoleBinding/realmforge-leader-election',
    'ServiceAccount/realmforge-operator',
  ]);
  for (const o of objects) {
    const live = await env.request('GET', await restPath(env.state.kubeconfig, o));
    assert.is(live.status, 200, `${o.kind} ${o.metadata.name} exists`);
    assert.is(live.body.metadata.labels['app.kubernetes.io/managed-by'], 'Helm');
    assert.is(live.body.metadata.annotations['meta.helm.sh/release-name'], release.name);
  }
});

test('an operator started from the installed Deployment reconciles a server, a realm and a chart-installed client to Ready', async () => {
  const started = await operatorFromDeployment();
  operator = started.process;
  const line = startupLine(operator);
  assert.equal(line.rateLimits, { global: { tps: 50, burst: 100 }, namespace: { tps: 5, burst: 10 } });
  assert.is(line.identity, started.podName, 'POD_NAME resolved from its fieldRef');
  assert.is(line.driftIntervalMs, 60_000);
  assert.is(line.leaderElect, false);
  if (started.port) assert.is(line.metricsPort, started.port, "the chart's metrics port");

  await sh('kubectl create namespace identity');
  await sh(
    'kubectl -n identity create rolebinding keycloak-operator-namespace-access --clusterrole=keycloak-operator-namespace-access --serviceaccount=realmforge-system:realmforge-operator',
  );
  await databaseCluster(env, identity, 'keycloak-db'); // CloudNativePG's part
  await sh('kubectl apply -f examples/identityserver-minimal.yaml');
  await sh(
    'kubectl -n identity wait --for=condition=Ready identityserver/keycloak-minimal --timeout=10m',
  ).catch((e) => {
    throw new Error(`${e.message}\n${JSON.stringify(operator?.logs().slice(-8))}`);
  });
  const realm = heredocOf(readme, 'kubectl apply -f -').replace(
    /^(\s*(?:namespace:|-)\s*)(identity|shop)\s*$/gm,
    (_m, lead: string, name: string) => `${lead}${name === 'identity' ? identity : shop}`,
  );
  assert.match(realm, new RegExp(`namespace: ${identity}`));
  await sh('kubectl apply -f -', realm);
  await sh('kubectl -n identity wait --for=condition=Ready identityrealm/customers --timeout=5m');

  const installed = await sh(
    'helm install shop-web ./chart/realmforge-client --namespace shop --create-namespace --set spec.realmRef.name=customers --set spec.realmRef.namespace=identity --set spec.rootUrl=https://shop.example.com --set spec.redirectUris={https://shop.example.com/oauth/callback} --set rbac.operatorNamespace=realmforge-system',
  );
  assert.match(installed, /STATUS: deployed/);
  await sh('kubectl -n shop wait --for=condition=Ready identityclient/shop-web --timeout=5m');
  await sh('kubectl -n shop get secret shop-web-credentials');
  const secret = await env.core.readNamespacedSecret({ namespace: shop, name: 'shop-web-credentials' });
  assert.is(Buffer.from(secret.data?.['client-id'] ?? '', 'base64').toString(), 'shop-web');
  assert.ok(secret.data?.['client-secret'], 'a confidential client has a secret');
  const binding = await env.request(
    'GET',
    `/apis/rbac.authorization.k8s.io/v1/namespaces/${shop}/rolebindings/keycloak-operator-namespace-access-shop-web`,
  );
  assert.equal(binding.body.subjects, [
    { kind: 'ServiceAccount', name: operatorAccount, namespace: operatorNamespace },
  ]);
});

test('helm upgrade --set raising the rate limits changes the Deployment environment, and the new operator reports them', async () => {
  const before = await deploymentEnv();
  assert.is(before.values.KEYCLOAK_API_GLOBAL_RATE_LIMIT_TPS, '50');
  await sh(
    'helm upgrade realmforge-operator ./chart/realmforge-operator --namespace realmforge-system --reuse-values --set rateLimits.global.tps=100 --set rateLimits.namespace.tps=10 --set rateLimits.namespace.burst=20',
  );
  const after = await deploymentEnv();
  assert.ok(after.generation > before.generation, 'the Deployment changed (a rollout in a cluster)');
  assert.equal(after.values, {
    ...before.values, // everything else (NODE_OPTIONS, ...) as it was
    KEYCLOAK_API_GLOBAL_RATE_LIMIT_TPS: '100',
    KEYCLOAK_API_GLOBAL_RATE_LIMIT_BURST: '100',
    KEYCLOAK_API_NAMESPACE_RATE_LIMIT_TPS: '10',
    KEYCLOAK_API_NAMESPACE_RATE_LIMIT_BURST: '20',
  });
  // As a rollout would: the old pod goes, a pod of the new template starts.
  await operator?.stop();
  const next = await operatorFromDeployment();
  operator = next.process;
  assert.equal(startupLine(operator).rateLimits, {
    global: { tps: 100, burst: 100 },
    namespace: { tps: 10, burst: 20 },
  });
  const current = operator;
  await eventually('the new operator to reconcile the chart-installed client', 60_000, async () =>
    (await current.counter('realmforge_reconcile_total', { kind: 'IdentityClient', result: 'success' })) > 0
      ? true
      : undefined,
  );
});

test('a bad value in helm upgrade is refused and the release keeps its values', async () => {
  const before = await deploymentEnv();
  const r = await helm(
    [
      'upgrade',
      release.name,
      operatorChart,
      '-n',
      release.namespace,
      '--reuse-values',
      '--set',
      'rateLimits.global.tps=-1',
    ],
    { KUBECONFIG: env.state.kubeconfig },
  );
  assert.is.not(r.code, 0);
  // The message the README quotes.
  assert.match(r.stderr, "- at '/rateLimits/global/tps': exclusiveMinimum: got -1, want 0");
  assert.equal(await deploymentEnv(), before);
});

test("every command this suite ran is in the README's Helm section, in the same order", () => {
  const documented = shellCommands(readme);
  let at = 0;
  for (const command of transcript) {
    const found = documented.indexOf(command, at);
    assert.ok(found >= 0, `README.md "Install with Helm" lacks, after command ${at}: ${command}`);
    at = found + 1;
  }
  assert.ok(transcript.length >= 10, `the suite ran the README's steps (${transcript.length} commands)`);
});

test.run();
