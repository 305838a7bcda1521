// Values change what a user would notice (environment, leader election, RBAC), and bad values fail with the
// schema's message before anything reaches the cluster.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clientChart, find, helm, operatorChart, parseObjects, template } from './helm-cli.ts';

async function operatorDeployment(args: string[] = []) {
  return find(parseObjects(await template(operatorChart, args)), 'Deployment', 'realmforge-operator');
}

const envOf = (d: Awaited<ReturnType<typeof operatorDeployment>>) =>
  Object.fromEntries(
    d.spec.template.spec.containers[0].env
      .filter((e: { value?: string }) => e.value !== undefined)
      .map((e: { name: string; value: string }) => [e.name, e.value]),
  );

test('rate limits set with --set become the operator environment', async () => {
  const env = envOf(
    await operatorDeployment(['--set=rateLimits.global.tps=100', '--set=rateLimits.namespace.tps=10']),
  );
  assert.equal(env, {
    KEYCLOAK_API_GLOBAL_RATE_LIMIT_TPS: '100',
    KEYCLOAK_API_GLOBAL_RATE_LIMIT_BURST: '100',
    KEYCLOAK_API_NAMESPACE_RATE_LIMIT_TPS: '10',
    KEYCLOAK_API_NAMESPACE_RATE_LIMIT_BURST: '10',
    NODE_OPTIONS: '--max-semi-space-size=2 --max-old-space-size=192 --v8-pool-size=1',
    MALLOC_ARENA_MAX: '2',
  });
});

test('a fractional TPS is kept as written', async () => {
  const env = envOf(await operatorDeployment(['--set-json=rateLimits.namespace.tps=0.5']));
  assert.is(env.KEYCLOAK_API_NAMESPACE_RATE_LIMIT_TPS, '0.5');
});

test('leader election is on with more than one replica or when enabled, off otherwise', async () => {
  const leaderArg = async (args: string[]) =>
    (await operatorDeployment(args)).spec.template.spec.containers[0].args.find((a: string) =>
      a.startsWith('--leader-elect='),
    );
  assert.is(await leaderArg([]), '--leader-elect=false');
  assert.is(await leaderArg(['--set=replicas=2']), '--leader-elect=true');
  assert.is(await leaderArg(['--set=leaderElection.enabled=true']), '--leader-elect=true');
  assert.is(await leaderArg(['--set=replicas=0']), '--leader-elect=false');
});

const bad: { what: string; chart: string; args: string[]; message: RegExp[] }[] = [
  {
    what: 'a negative global TPS',
    chart: operatorChart,
    args: ['--set=rateLimits.global.tps=-1'],
    message: [/values don't meet the specifications of the schema/, /rateLimits\/global\/tps/, /-1/],
  },
  {
    what: 'a negative namespace TPS',
    chart: operatorChart,
    args: ['--set=rateLimits.namespace.tps=-5'],
    message: [/rateLimits\/namespace\/tps/],
  },
  {
    what: 'zero replicas with leader election',
    chart: operatorChart,
    args: ['--set=replicas=0', '--set=leaderElection.enabled=true'],
    message: [/\/replicas/, /minimum/],
  },
  {
    what: 'a string for the replica count',
    chart: operatorChart,
    args: ['--set-string=replicas=three'],
    message: [/\/replicas/, /integer/],
  },
  {
    what: 'an unknown log level',
    chart: operatorChart,
    args: ['--set=logLevel=verbose'],
    message: [/\/logLevel/, /debug/],
  },
  {
    what: 'a misspelt key',
    chart: operatorChart,
    args: ['--set=rateLimit.global.tps=5'],
    message: [/rateLimit/, /additional properties|not allowed/i],
  },
  {
    what: 'a client without its realm',
    chart: clientChart,
    args: [],
    message: [/spec\/realmRef\/name/],
  },
  {
    what: 'a string for rbac.create',
    chart: clientChart,
    args: ['--set=spec.realmRef.name=customers', '--set-string=rbac.create=yes'],
    message: [/rbac\/create/, /boolean/],
  },
];

for (const b of bad) {
  test(`${b.what} fails helm template with the schema's message`, async () => {
    const r = await helm(['template', 'demo', b.chart, ...b.args]);
    assert.is.not(r.code, 0, `helm accepted ${b.args.join(' ')}`);
    for (const m of b.message) assert.match(r.stderr, m);
  });
}

test('the client chart binds the operator ServiceAccount of rbac.operatorNamespace', async () => {
  const objects = parseObjects(
    await template(clientChart, [
      '--namespace=shop',
      '--set=spec.realmRef.name=customers',
      '--set=rbac.operatorNamespace=ops',
    ]),
  );
  const binding = find(objects, 'RoleBinding', 'keycloak-operator-namespace-access-demo');
  assert.is(binding.metadata.namespace, 'shop');
  assert.equal(binding.roleRef, {
    apiGroup: 'rbac.authorization.k8s.io',
    kind: 'ClusterRole',
    name: 'keycloak-operator-namespace-access',
  });
  assert.equal(binding.subjects, [{ kind: 'ServiceAccount', name: 'realmforge-operator', namespace: 'ops' }]);
  const client = find(objects, 'IdentityClient', 'demo');
  assert.equal(client.spec, { realmRef: { name: 'customers' } });
});

test('the team Role names each secret it may read', async () => {
  const objects = parseObjects(
    await template(clientChart, [
      '--namespace=shop',
      '--set=spec.realmRef.name=customers',
      '--set=realmManagerRole.create=true,realmManagerRole.realms={customers,staff}',
    ]),
  );
  const role = find(objects, 'Role', 'keycloak-realm-manager');
  assert.equal(role.rules[1], {
    apiGroups: [''],
    resources: ['secrets'],
    resourceNames: ['shop-operator-token', 'customers-realm-auth', 'staff-realm-auth'],
    verbs: ['get'],
  });
  assert.equal(role.rules[0].verbs, ['create', 'update', 'patch', 'delete', 'get', 'list', 'watch']);
});

test.run();
