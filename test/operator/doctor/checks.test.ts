// The doctor's checks as pure functions of a snapshot: each symptom of the troubleshooting guide, one row each.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityServer } from '../../../generated/types/crds/identityserver.ts';
import type { KubeObject } from '../../../src/operator/compile/kube-object.ts';
import { resolveServer } from '../../../src/operator/compile/resolved-server.ts';
import { samples } from '../../../src/operator/doctor/checks-metrics.ts';
import { diagnose, renderReport, reportExitCode } from '../../../src/operator/doctor/report.ts';
import type { ServerFacts, Snapshot } from '../../../src/operator/doctor/snapshot.ts';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const server = (spec: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityServer',
  metadata: { namespace: 'id', name: 'kc', generation: 1 },
  spec: { image: { tag: '26.0.0' }, database: { cluster: 'pg' }, ...spec },
  status: { phase: 'Ready', observedGeneration: 1 },
});

/** Keycloak's /metrics lines for its realms cache, as Keycloak 26 prints them (another cache's beside). */
const realmsCacheMetrics = (entries: number, evictions: number) =>
  ['realms', 'users']
    .flatMap((cache) => [
      `vendor_statistics_approximate_entries{cache="${cache}",cache_manager="DefaultCacheManager",node="kc-0"} ${entries}.0`,
      `vendor_statistics_evictions{cache="${cache}",cache_manager="DefaultCacheManager",node="kc-0"} ${cache === 'realms' ? evictions : 7}.0`,
    ])
    .join('\n');

function facts(object = server()): Mutable<ServerFacts> {
  return {
    server: object,
    resolved: resolveServer(object as unknown as IdentityServer),
    cluster: {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      metadata: { name: 'pg' },
      status: { readyInstances: 1, instances: 1, conditions: [{ type: 'Ready', status: 'True' }] },
    },
    credentialsSecretExists: true,
    keycloak: { ok: true, detail: 'HTTP 200' },
    keycloakMetrics: { text: realmsCacheMetrics(4642, 0) },
  };
}

const pod = (containerStatus: Record<string, unknown>, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { namespace: 'realmforge-system', name: 'op-1' },
  status: {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'True' }],
    containerStatuses: [{ name: 'operator', restartCount: 0, ...containerStatus }],
    ...extra,
  },
});

function healthy(): Mutable<Snapshot> {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    status: { conditions: [{ type: 'Established', status: 'True' }] },
  };
  const crds = Object.fromEntries(
    [
      'identityservers.realmforge.dev',
      'identityrealms.realmforge.dev',
      'identityclients.realmforge.dev',
      'clusters.postgresql.cnpg.io',
    ].map((name) => [name, { ...crd, metadata: { name } }]),
  );
  return {
    cluster: 'https://k8s.example:6443',
    operator: {
      namespace: 'realmforge-system',
      deployment: 'realmforge-operator',
      serviceAccount: 'realmforge-operator',
    },
    crds,
    deployment: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'realmforge-operator' },
      spec: { replicas: 1 },
      status: { availableReplicas: 1 },
    },
    pods: [pod({ ready: true })],
    metrics: { text: 'realmforge_leader 1\nrealmforge_reconcile_errors_total{kind="IdentityRealm"} 0\n' },
    access: [{ verb: 'list', group: 'apps', resource: 'deployments', allowed: true }],
    bindings: {},
    servers: [facts()],
    realms: [],
    clients: [],
    ingressClasses: [],
  };
}

type Row = [string, (s: Mutable<Snapshot>) => void, string, 'WARN' | 'FAIL', RegExp];
const rows: Row[] = [
  [
    'CRD being deleted',
    (s) => {
      const crd = s.crds['identityclients.realmforge.dev'] as KubeObject;
      s.crds = {
        ...s.crds,
        [crd.metadata.name]: { ...crd, metadata: { ...crd.metadata, deletionTimestamp: new Date(0) } },
      };
    },
    'CustomResourceDefinition identityclients.realmforge.dev',
    'FAIL',
    /being deleted.*reinstall/,
  ],
  [
    'image pull failure',
    (s) => {
      s.pods = [pod({ state: { waiting: { reason: 'ImagePullBackOff', message: 'pull access denied' } } })];
    },
    'Pod realmforge-system/op-1',
    'FAIL',
    /ImagePullBackOff.*pull access denied.*imagePullSecrets/,
  ],
  [
    'OOMKilled',
    (s) => {
      s.pods = [pod({ restartCount: 4, lastState: { terminated: { reason: 'OOMKilled', exitCode: 137 } } })];
    },
    'Pod realmforge-system/op-1',
    'FAIL',
    /OOMKilled.*memory limit.*resources\.limits\.memory/,
  ],
  [
    'crash loop',
    (s) => {
      s.pods = [
        pod({
          restartCount: 7,
          state: { waiting: { reason: 'CrashLoopBackOff' } },
          lastState: { terminated: { exitCode: 2 } },
        }),
      ];
    },
    'Pod realmforge-system/op-1',
    'FAIL',
    /crash loop \(7 restarts, last exit 2\).*kubectl logs/,
  ],
  [
    'restarts',
    (s) => {
      s.pods = [pod({ ready: true, restartCount: 2, lastState: { terminated: { reason: 'Error' } } })];
    },
    'Pod realmforge-system/op-1',
    'WARN',
    /restarted 2 times \(last: Error\)/,
  ],
  [
    'unschedulable',
    (s) => {
      s.pods = [
        pod(
          {},
          {
            phase: 'Pending',
            conditions: [
              { type: 'PodScheduled', status: 'False', message: '0/3 nodes: Insufficient memory' },
            ],
          },
        ),
      ];
    },
    'Pod realmforge-system/op-1',
    'FAIL',
    /not scheduled.*Insufficient memory/,
  ],
  [
    'no leader',
    (s) => {
      s.deployment = {
        ...(s.deployment as KubeObject),
        spec: { replicas: 2, template: { spec: { containers: [{ args: ['run', '--leader-elect=true'] }] } } },
      };
    },
    'Lease realmforge-system/realmforge-operator',
    'FAIL',
    /no replica holds the Lease/,
  ],
  [
    'operator outside the cluster, down',
    (s) => {
      s.operator = { ...s.operator, url: 'http://127.0.0.1:9' };
      s.health = { ok: false, detail: 'ECONNREFUSED' };
    },
    'operator at http://127.0.0.1:9',
    'FAIL',
    /ECONNREFUSED.*npm start/,
  ],
  [
    'metrics unreadable',
    (s) => {
      s.metrics = { error: 'HTTP 403' };
    },
    'operator /metrics',
    'WARN',
    /HTTP 403/,
  ],
  [
    'rate-limit pressure',
    (s) => {
      s.metrics = {
        text: 'realmforge_keycloak_api_rate_limit_queued{scope="namespace"} 12\nrealmforge_keycloak_api_rate_limit_wait_seconds_sum{scope="namespace"} 30\nrealmforge_keycloak_api_rate_limit_wait_seconds_count{scope="namespace"} 10\n',
      };
    },
    'Keycloak rate limits',
    'WARN',
    /namespace 12; mean wait 3\.00 s.*KEYCLOAK_API_NAMESPACE_RATE_LIMIT_TPS/,
  ],
  [
    'deep work queue',
    (s) => {
      s.metrics = { text: 'realmforge_workqueue_depth{kind="IdentityClient"} 150\n' };
    },
    'realmforge_workqueue_depth{kind="IdentityClient"}',
    'WARN',
    /150 IdentityClient resources waiting/,
  ],
  [
    'generation not reconciled',
    (s) => {
      s.realms = [
        {
          apiVersion: 'realmforge.dev/v1',
          kind: 'IdentityRealm',
          metadata: { namespace: 'id', name: 'r', generation: 3 },
          status: { phase: 'Ready', observedGeneration: 2 },
        },
      ];
    },
    'IdentityRealm id/r',
    'WARN',
    /generation 3 not reconciled yet/,
  ],
  [
    'no status at all',
    (s) => {
      s.clients = [
        { apiVersion: 'realmforge.dev/v1', kind: 'IdentityClient', metadata: { namespace: 't', name: 'c' } },
      ];
    },
    'IdentityClient t/c',
    'FAIL',
    /has not reconciled it/,
  ],
  [
    'Keycloak unavailable',
    (s) => {
      s.clients = [
        {
          apiVersion: 'realmforge.dev/v1',
          kind: 'IdentityClient',
          metadata: { namespace: 't', name: 'c' },
          status: { phase: 'Provisioning', reason: 'KeycloakUnavailable', message: 'connect ECONNREFUSED' },
        },
      ];
    },
    'IdentityClient t/c',
    'WARN',
    /Provisioning\/KeycloakUnavailable.*ECONNREFUSED.*retries with backoff/,
  ],
  [
    'Ready held through a Keycloak outage',
    (s) => {
      s.clients = [
        {
          apiVersion: 'realmforge.dev/v1',
          kind: 'IdentityClient',
          metadata: { namespace: 't', name: 'c' },
          status: { phase: 'Ready', reason: 'KeycloakUnavailable', message: 'HTTP 503 down' },
        },
      ];
    },
    'IdentityClient t/c',
    'WARN',
    /Ready as last verified, not Synced: KeycloakUnavailable \| HTTP 503 down \|.*--ready-grace/,
  ],
  [
    'namespace not in grants',
    (s) => {
      s.clients = [
        {
          apiVersion: 'realmforge.dev/v1',
          kind: 'IdentityClient',
          metadata: { namespace: 't', name: 'c' },
          status: { phase: 'Pending', reason: 'NamespaceNotAuthorized', message: 't is not granted' },
        },
      ];
    },
    'IdentityClient t/c',
    'FAIL',
    /NamespaceNotAuthorized.*clientAuthorizationGrants/,
  ],
  [
    'realm namespace not granted by its server',
    (s) => {
      s.realms = [
        {
          apiVersion: 'realmforge.dev/v1',
          kind: 'IdentityRealm',
          metadata: { namespace: 't', name: 'r' },
          status: {
            phase: 'Pending',
            reason: 'NamespaceNotAuthorized',
            message: 't is not in spec.realmAuthorizationGrants',
          },
        },
      ];
    },
    'IdentityRealm t/r',
    'FAIL',
    /NamespaceNotAuthorized.*add this namespace to the IdentityServer's spec\.realmAuthorizationGrants/,
  ],
  [
    "an adopted realm whose grant the operator's master identity lacks",
    (s) => {
      s.realms = [
        {
          apiVersion: 'realmforge.dev/v1',
          kind: 'IdentityRealm',
          metadata: { namespace: 't', name: 'legacy' },
          status: {
            phase: 'Pending',
            reason: 'RealmGrantMissing',
            message:
              "the operator's master identity holds no grant in realm legacy; grant it the roles manage-realm of client legacy-realm in master (kcadm.sh add-roles ...)",
          },
        },
      ];
    },
    'IdentityRealm t/legacy',
    'FAIL',
    /RealmGrantMissing.*client legacy-realm in master.*give the operator's master identity the roles of client <realm>-realm/,
  ],
  [
    'CloudNativePG missing',
    (s) => {
      s.crds = { ...s.crds, 'clusters.postgresql.cnpg.io': undefined };
    },
    'CustomResourceDefinition clusters.postgresql.cnpg.io',
    'FAIL',
    /not installed.*install CloudNativePG/,
  ],
  [
    'database cluster with no ready instance',
    (s) => {
      (s.servers[0] as Mutable<ServerFacts>).cluster = {
        apiVersion: 'postgresql.cnpg.io/v1',
        kind: 'Cluster',
        metadata: { name: 'pg' },
        status: {
          readyInstances: 0,
          phase: 'Setting up primary',
          conditions: [{ type: 'Ready', status: 'False' }],
        },
      };
    },
    'Cluster id/pg',
    'FAIL',
    /not ready \(Setting up primary\).*storage/,
  ],
  [
    'credentials Secret missing',
    (s) => {
      (s.servers[0] as Mutable<ServerFacts>).credentialsSecretExists = false;
    },
    'Secret id/pg-app',
    'FAIL',
    /does not exist.*pg-app/,
  ],
  [
    'Keycloak not answering',
    (s) => {
      (s.servers[0] as Mutable<ServerFacts>).keycloak = { ok: false, detail: 'HTTP 503' };
    },
    'Keycloak of IdentityServer id/kc',
    'FAIL',
    /HTTP 503/,
  ],
  [
    'Ingress class missing',
    (s) => {
      s.servers = [
        {
          ...facts(server({ ingress: { enabled: true, host: 'id.example', className: 'nginx' } })),
          ingress: {
            apiVersion: 'networking.k8s.io/v1',
            kind: 'Ingress',
            metadata: { name: 'kc' },
            spec: { ingressClassName: 'nginx' },
          },
        },
      ];
    },
    'Ingress id/kc',
    'FAIL',
    /IngressClass nginx does not exist/,
  ],
  [
    'Ingress not created',
    (s) => {
      s.servers = [facts(server({ ingress: { enabled: true, host: 'id.example' } }))];
    },
    'Ingress id/kc',
    'FAIL',
    /not created/,
  ],
  [
    'Ingress without address',
    (s) => {
      s.ingressClasses = [
        {
          apiVersion: 'networking.k8s.io/v1',
          kind: 'IngressClass',
          metadata: { name: 'nginx', annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } },
        },
      ];
      s.servers = [
        {
          ...facts(server({ ingress: { enabled: true, host: 'id.example' } })),
          ingress: {
            apiVersion: 'networking.k8s.io/v1',
            kind: 'Ingress',
            metadata: { name: 'kc' },
            spec: {},
          },
        },
      ];
    },
    'Ingress id/kc',
    'WARN',
    /no address yet.*DNS for id\.example/,
  ],
  [
    'Secret verbs denied although bound',
    (s) => {
      s.bindings = {
        t: [
          {
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'RoleBinding',
            metadata: { name: 'b' },
            roleRef: { kind: 'ClusterRole', name: 'keycloak-operator-namespace-access' },
            subjects: [
              { kind: 'ServiceAccount', name: 'realmforge-operator', namespace: 'realmforge-system' },
            ],
          },
        ],
      };
      s.access = [
        ...s.access,
        { verb: 'create', group: '', resource: 'secrets', namespace: 't', allowed: false },
      ];
    },
    'namespace t',
    'FAIL',
    /cannot create Secrets here although keycloak-operator-namespace-access is bound.*lacks these verbs/,
  ],
  [
    "Keycloak 26's realms cache evicting",
    (s) => {
      (s.servers[0] as Mutable<ServerFacts>).keycloakMetrics = { text: realmsCacheMetrics(100000, 5321) };
    },
    'Keycloak realms cache of IdentityServer id/kc',
    'WARN',
    /full: 5321 entries evicted, 100000 held \| .*read again from the database.* \| set spec\.additionalOptions cache-embedded-realms-max-count above 100000/,
  ],
  [
    "Keycloak 25's realms cache evicting",
    (s) => {
      s.servers = [
        {
          ...facts(server({ image: { tag: '25.0.6' } })),
          keycloakMetrics: { text: realmsCacheMetrics(10000, 12) },
        },
      ];
    },
    'Keycloak realms cache of IdentityServer id/kc',
    'WARN',
    /full: 12 entries evicted.*Keycloak 25 has no option for it: move to Keycloak 26, or give a cache-config-file/,
  ],
  [
    "Keycloak's /metrics without the realms cache",
    (s) => {
      (s.servers[0] as Mutable<ServerFacts>).keycloakMetrics = { text: 'jvm_gc_live_data_size_bytes 1.0E8' };
    },
    'Keycloak realms cache of IdentityServer id/kc',
    'WARN',
    /not reported \| .*no realms cache series .* \| read it by hand: kubectl port-forward -n id service\/kc 9000, then curl/,
  ],
  [
    "Keycloak's /metrics not answering",
    (s) => {
      (s.servers[0] as Mutable<ServerFacts>).keycloakMetrics = { error: 'HTTP 404' };
    },
    'Keycloak realms cache of IdentityServer id/kc',
    'WARN',
    /not reported \| \/metrics on port 9000: HTTP 404/,
  ],
];

test('the healthy snapshot is all OK and exits 0', () => {
  const report = diagnose(healthy());
  assert.equal(
    report.checks.filter((c) => c.status !== 'OK'),
    [],
  );
  assert.is(reportExitCode(report), 0);
  assert.ok(
    report.checks.some((c) => c.message === '4642 entries, none evicted'),
    "the realms cache's OK row names what it holds",
  );
});

for (const [name, mutate, subject, status, pattern] of rows) {
  test(`${name}: ${status} on ${subject}`, () => {
    const s = healthy();
    mutate(s);
    const report = diagnose(s);
    const check = report.checks.find((c) => c.subject === subject && c.status !== 'OK');
    assert.ok(check, `nothing on ${subject}: ${renderReport(report)}`);
    assert.is(check?.status, status);
    assert.match(`${check?.message} | ${check?.cause} | ${check?.fix}`, pattern);
    assert.is(reportExitCode(report), status === 'FAIL' ? 1 : 0, 'only a FAIL makes the exit code 1');
  });
}

test('metric samples: labels parsed, other metrics with the same prefix ignored', () => {
  const text = 'a_total{kind="X",scope="y"} 2\na_total_other 9\na_total 1\n# HELP a_total x\n';
  assert.equal(samples(text, 'a_total'), [
    { labels: { kind: 'X', scope: 'y' }, value: 2 },
    { labels: {}, value: 1 },
  ]);
});

test.run();
