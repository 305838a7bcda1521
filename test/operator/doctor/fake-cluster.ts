// An API server on 127.0.0.1 holding a healthy install (the real dist-manifests/ plus a server, a realm and a
// client, all Ready) for `realmforge doctor`. As strict as the real one where doctor depends on it: objects are
// served by their REST paths, lists honour label selectors, and a SubjectAccessReview is answered by evaluating
// the stored ClusterRoles, Roles and their bindings (RBAC's rules: group, resource, verb, wildcards), not a table.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../../../src/operator/compile/kube-object.ts';
import { discovery, fakeApiServer, json, type SeenRequest, status } from '../runtime/fake-api-server.ts';

const root = join(import.meta.dirname, '..', '..', '..');

Object.assign(discovery.v1, {
  Pod: ['pods', true],
  ServiceAccount: ['serviceaccounts', true],
  ConfigMap: ['configmaps', true],
});
discovery['apiextensions.k8s.io/v1'] = { CustomResourceDefinition: ['customresourcedefinitions', false] };
discovery['networking.k8s.io/v1'] = { Ingress: ['ingresses', true], IngressClass: ['ingressclasses', false] };
discovery['rbac.authorization.k8s.io/v1'] = {
  ClusterRole: ['clusterroles', false],
  ClusterRoleBinding: ['clusterrolebindings', false],
  Role: ['roles', true],
  RoleBinding: ['rolebindings', true],
};

type Rule = { apiGroups?: string[]; resources?: string[]; verbs?: string[] };
type Binding = KubeObject & {
  roleRef: { kind: string; name: string };
  subjects?: { kind: string; name: string; namespace?: string }[];
};

const yamlObjects = (file: string): KubeObject[] =>
  parseAllDocuments(readFileSync(file, 'utf8'))
    .map((d) => d.toJS() as KubeObject | null)
    .filter((o): o is KubeObject => o !== null);

const ready = (generation = 1) => ({
  phase: 'Ready',
  reason: 'Ready',
  message: 'ok',
  observedGeneration: generation,
  conditions: [{ type: 'Ready', status: 'True', reason: 'Ready' }],
});
const meta = (namespace: string, name: string, extra = {}) => ({ namespace, name, generation: 1, ...extra });
const accessBinding = (namespace: string): KubeObject => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'RoleBinding',
  metadata: { namespace, name: 'realmforge-operator-access' },
  roleRef: {
    apiGroup: 'rbac.authorization.k8s.io',
    kind: 'ClusterRole',
    name: 'keycloak-operator-namespace-access',
  },
  subjects: [{ kind: 'ServiceAccount', name: 'realmforge-operator', namespace: 'realmforge-system' }],
});

/** The install manifests, Established CRDs, a running operator pod and a Ready server, realm and client. */
export function healthyCluster(): KubeObject[] {
  const crdDir = join(root, 'dist-manifests', 'crds');
  const crds = readdirSync(crdDir).flatMap((f) => yamlObjects(join(crdDir, f)));
  for (const crd of crds) crd.status = { conditions: [{ type: 'Established', status: 'True' }] };
  const install = yamlObjects(join(root, 'dist-manifests', 'operator.yaml'));
  const deployment = install.find((o) => o.kind === 'Deployment') as KubeObject;
  deployment.status = { replicas: 1, availableReplicas: 1, readyReplicas: 1 };
  return [
    ...crds,
    {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'clusters.postgresql.cnpg.io' },
    },
    ...install,
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        namespace: 'realmforge-system',
        name: 'realmforge-operator-5d9c-x2p4q',
        labels: { 'app.kubernetes.io/name': 'realmforge-operator' },
      },
      // A metrics port other than the default: doctor must read the one the pod names `metrics`.
      spec: { containers: [{ name: 'operator', ports: [{ name: 'metrics', containerPort: 9090 }] }] },
      status: {
        phase: 'Running',
        conditions: [
          { type: 'PodScheduled', status: 'True' },
          { type: 'Ready', status: 'True' },
        ],
        containerStatuses: [{ name: 'operator', ready: true, restartCount: 0, state: { running: {} } }],
      },
    },
    {
      apiVersion: 'realmforge.dev/v1',
      kind: 'IdentityServer',
      metadata: meta('id', 'kc'),
      spec: { image: { tag: '26.0.0' }, database: { cluster: 'pg' } },
      status: { ...ready(), endpoints: { management: 'http://kc.id.svc:9000' } },
    },
    {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      metadata: meta('id', 'pg'),
      spec: { instances: 1 },
      status: {
        readyInstances: 1,
        instances: 1,
        phase: 'Cluster in healthy state',
        conditions: [{ type: 'Ready', status: 'True' }],
      },
    },
    { apiVersion: 'v1', kind: 'Secret', metadata: meta('id', 'pg-app'), data: { password: 'c2VjcmV0' } },
    {
      apiVersion: 'realmforge.dev/v1',
      kind: 'IdentityRealm',
      metadata: meta('id', 'acme'),
      spec: { serverRef: { name: 'kc' }, clientAuthorizationGrants: ['team'] },
      status: ready(),
    },
    {
      apiVersion: 'realmforge.dev/v1',
      kind: 'IdentityClient',
      metadata: meta('team', 'web'),
      spec: { realmRef: { name: 'acme', namespace: 'id' } },
      status: ready(),
    },
    accessBinding('id'),
    accessBinding('team'),
  ];
}

function matches(rule: Rule, group: string, resource: string, verb: string): boolean {
  const has = (list: string[] | undefined, v: string) => (list ?? []).some((x) => x === '*' || x === v);
  return has(rule.apiGroups, group) && has(rule.resources, resource) && has(rule.verbs, verb);
}

/** RBAC's answer for the ServiceAccount `user` (system:serviceaccount:ns:name). */
function allowed(objects: KubeObject[], user: string, attrs: Record<string, string | undefined>): boolean {
  const [, , saNs, saName] = user.split(':');
  const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : (attrs.resource ?? '');
  const names = (b: Binding) =>
    (b.subjects ?? []).some((s) => s.kind === 'ServiceAccount' && s.name === saName && s.namespace === saNs);
  const rulesOf = (b: Binding) => {
    const role = objects.find(
      (o) =>
        o.kind === b.roleRef.kind &&
        o.metadata.name === b.roleRef.name &&
        (b.roleRef.kind === 'ClusterRole' || o.metadata.namespace === b.metadata.namespace),
    );
    return (role?.rules as Rule[] | undefined) ?? [];
  };
  const bindings = objects.filter(
    (o) =>
      o.kind === 'ClusterRoleBinding' ||
      (o.kind === 'RoleBinding' && o.metadata.namespace === attrs.namespace),
  ) as Binding[];
  return bindings.some(
    (b) => names(b) && rulesOf(b).some((r) => matches(r, attrs.group ?? '', resource, attrs.verb ?? '')),
  );
}

const plurals = () =>
  Object.entries(discovery).flatMap(([apiVersion, kinds]) =>
    Object.entries(kinds).map(([kind, [plural]]) => ({ apiVersion, kind, plural })),
  );

/** Starts the fake holding `objects`; `text` answers the proxy paths (a pod's /metrics, Keycloak's health). */
export async function fakeCluster(objects: KubeObject[], text: Record<string, string> = {}) {
  const writes: SeenRequest[] = [];
  const server = await fakeApiServer((req, res) => {
    if (req.method === 'POST' && req.path === '/apis/authorization.k8s.io/v1/subjectaccessreviews') {
      const spec = req.body.spec;
      return json(res, 201, {
        ...req.body,
        status: { allowed: allowed(objects, spec.user, spec.resourceAttributes) },
      });
    }
    if (req.method !== 'GET') {
      writes.push(req);
      return json(res, 405, status(405, 'doctor must only read'));
    }
    if (req.path.includes('/proxy/')) {
      const body = Object.entries(text).find(([suffix]) => req.path.endsWith(suffix))?.[1];
      if (body === undefined) return json(res, 503, status(503, 'no endpoints available'));
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(body);
      return true;
    }
    const m = /^\/apis?\/(.+?)(?:\/namespaces\/([^/]+))?\/([a-z]+)(?:\/([^/]+))?$/.exec(req.path);
    const type = m && plurals().find((p) => p.apiVersion === m[1] && p.plural === m[3]);
    if (!m || !type) return false;
    const [, , namespace, , name] = m;
    const selector = (req.query.get('labelSelector') ?? '')
      .split(',')
      .filter(Boolean)
      .map((s) => s.split('='));
    const found = objects.filter(
      (o) =>
        o.apiVersion === type.apiVersion &&
        o.kind === type.kind &&
        (namespace === undefined || o.metadata.namespace === namespace) &&
        (name === undefined || o.metadata.name === name) &&
        selector.every(([k, v]) => o.metadata.labels?.[k] === v),
    );
    if (name === undefined) return json(res, 200, { kind: `${type.kind}List`, metadata: {}, items: found });
    return found[0] ? json(res, 200, found[0]) : false;
  });
  return { ...server, writes };
}
