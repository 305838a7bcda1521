import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileOperatorInstall, defaultOperatorSettings } from '../../../src/operator/compile/install.ts';
import { find } from './fixtures.ts';

const objects = compileOperatorInstall();
const rules = (name: string) =>
  (find(objects, 'ClusterRole', name) as any).rules as { resources: string[]; verbs: string[] }[];

test('the operator runs in realmforge-system as realmforge-operator with the rate limits and metrics port', () => {
  const deployment = find(objects, 'Deployment', 'realmforge-operator') as any;
  assert.is(deployment.metadata.namespace, 'realmforge-system');
  const pod = deployment.spec.template;
  assert.is(pod.metadata.labels['app.kubernetes.io/name'], 'realmforge-operator');
  const c = pod.spec.containers[0];
  const env = Object.fromEntries(c.env.filter((e: any) => e.value).map((e: any) => [e.name, e.value]));
  assert.is(env.KEYCLOAK_API_GLOBAL_RATE_LIMIT_TPS, '50');
  assert.is(env.KEYCLOAK_API_NAMESPACE_RATE_LIMIT_TPS, '5');
  assert.is(c.ports[0].containerPort, 8081);
  assert.is(c.livenessProbe.httpGet.path, '/healthz');
  assert.is(c.readinessProbe.httpGet.path, '/readyz');
  assert.is(pod.spec.serviceAccountName, 'realmforge-operator');
});

test('raised limits and replicas flow into the Deployment', () => {
  const raised = compileOperatorInstall({
    ...defaultOperatorSettings,
    globalRateLimitTps: 100,
    namespaceRateLimitTps: 10,
    replicas: 2,
  });
  const c = (find(raised, 'Deployment') as any).spec.template.spec.containers[0];
  assert.ok(c.env.some((e: any) => e.name === 'KEYCLOAK_API_GLOBAL_RATE_LIMIT_TPS' && e.value === '100'));
  assert.ok(c.env.some((e: any) => e.name === 'KEYCLOAK_API_NAMESPACE_RATE_LIMIT_TPS' && e.value === '10'));
  assert.ok(c.args.includes('--leader-elect=true'));
});

test('keycloak-operator has no access to Secrets: it gets them per namespace through keycloak-operator-namespace-access', () => {
  assert.not.ok(rules('keycloak-operator').some((r) => r.resources.includes('secrets')));
  assert.equal(rules('keycloak-operator-namespace-access'), [
    {
      apiGroups: [''],
      resources: ['secrets'],
      verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
    },
  ] as any);
  const binding = find(objects, 'ClusterRoleBinding', 'keycloak-operator') as any;
  assert.equal(binding.subjects, [
    { kind: 'ServiceAccount', name: 'realmforge-operator', namespace: 'realmforge-system' },
  ]);
});

test('keycloak-operator never deletes its own custom resources and uses no wildcards', () => {
  for (const rule of rules('keycloak-operator')) {
    assert.not.ok(rule.verbs.includes('*') || rule.resources.includes('*'));
    if (rule.resources.includes('identityservers')) assert.not.ok(rule.verbs.includes('delete'));
  }
});

test('keycloak-realm-manager grants the spec verbs on realms and clients', () => {
  assert.equal(rules('keycloak-realm-manager'), [
    {
      apiGroups: ['realmforge.dev'],
      resources: ['identityrealms', 'identityclients'],
      verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
    },
  ] as any);
});

test('leader election is a namespaced Role on leases only', () => {
  const role = find(objects, 'Role', 'realmforge-leader-election') as any;
  assert.is(role.metadata.namespace, 'realmforge-system');
  assert.equal(role.rules[0].resources, ['leases']);
});

test.run();
