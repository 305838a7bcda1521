import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { toYamlDocuments } from '../../../src/core/yaml.ts';
import { compileIdentityServer } from '../../../src/operator/compile/identity-server.ts';
import { assertGolden } from '../../helpers/golden.ts';
import { containerEnv, exampleServer, find, inputs, server } from './fixtures.ts';

const golden = (name: string) => new URL(`golden/${name}`, import.meta.url).pathname;

test('the full example compiles to the pinned manifests', () => {
  const yaml = toYamlDocuments(compileIdentityServer(exampleServer('identityserver-full.yaml'), inputs));
  assertGolden(yaml, golden('identityserver-full.yaml'));
});

test('the minimal example compiles to the pinned manifests', () => {
  const yaml = toYamlDocuments(compileIdentityServer(exampleServer('identityserver-minimal.yaml'), inputs));
  assertGolden(yaml, golden('identityserver-minimal.yaml'));
});

test('compiling twice gives byte-identical output', () => {
  const a = toYamlDocuments(compileIdentityServer(exampleServer('identityserver-full.yaml'), inputs));
  const b = toYamlDocuments(compileIdentityServer(exampleServer('identityserver-full.yaml'), inputs));
  assert.is(a, b);
});

test('the Deployment runs Keycloak in production mode with its PostgreSQL settings', () => {
  const objects = compileIdentityServer(server({ database: { cluster: 'pg', namespace: 'db' } }), inputs);
  const deployment = find(objects, 'Deployment', 'kc') as any;
  const container = deployment.spec.template.spec.containers[0];
  assert.is(container.image, 'quay.io/keycloak/keycloak:26.0.7');
  assert.equal(container.args, ['start']);
  const env = containerEnv(objects);
  assert.is(env.get('KC_DB'), 'postgres');
  assert.is(env.get('KC_DB_URL_HOST'), 'pg-rw.db.svc');
  assert.is(env.get('KC_DB_URL_PORT'), '5432');
  assert.is(env.get('KC_DB_URL_DATABASE'), 'keycloak');
  assert.is(env.get('KC_DB_USERNAME'), 'secret:kc-db-credentials/username');
  assert.is(env.get('KC_DB_PASSWORD'), 'secret:kc-db-credentials/password');
  for (const flag of ['KC_HEALTH_ENABLED', 'KC_METRICS_ENABLED', 'KC_HTTP_ENABLED'])
    assert.is(env.get(flag), 'true');
  assert.is(env.get('KC_HTTP_MANAGEMENT_PORT'), '9000');
  assert.is(env.get('KC_HOSTNAME_STRICT'), 'false');
  assert.is(env.get('KC_CACHE'), 'local');
  assert.is(deployment.spec.template.spec.securityContext.runAsNonRoot, true);
  assert.is(container.securityContext.allowPrivilegeEscalation, false);
});

test('the bootstrap admin variables follow the Keycloak version', () => {
  const v26 = containerEnv(compileIdentityServer(server(), inputs));
  assert.is(v26.get('KC_BOOTSTRAP_ADMIN_USERNAME'), 'secret:kc-admin-credentials/username');
  assert.is(v26.get('KC_BOOTSTRAP_ADMIN_PASSWORD'), 'secret:kc-admin-credentials/password');
  assert.not.ok(v26.has('KEYCLOAK_ADMIN'));
  const v25 = containerEnv(compileIdentityServer(server({ image: { tag: '25.0.6' } }), inputs));
  assert.is(v25.get('KEYCLOAK_ADMIN'), 'secret:kc-admin-credentials/username');
  assert.is(v25.get('KEYCLOAK_ADMIN_PASSWORD'), 'secret:kc-admin-credentials/password');
  assert.not.ok(v25.has('KC_BOOTSTRAP_ADMIN_USERNAME'));
});

test('probes hit the management port and take the spec timings over the defaults', () => {
  const objects = compileIdentityServer(
    server({
      probes: { liveness: { initialDelaySeconds: 7, periodSeconds: 3 }, readiness: { failureThreshold: 9 } },
    }),
    inputs,
  );
  const c = (find(objects, 'Deployment') as any).spec.template.spec.containers[0];
  assert.equal(c.livenessProbe.httpGet, { path: '/health/live', port: 'management', scheme: 'HTTP' });
  assert.is(c.livenessProbe.initialDelaySeconds, 7);
  assert.is(c.livenessProbe.periodSeconds, 3);
  assert.is(c.readinessProbe.httpGet.path, '/health/ready');
  assert.is(c.readinessProbe.failureThreshold, 9);
  assert.is(c.startupProbe.httpGet.path, '/health/started');
  assert.ok(
    c.startupProbe.failureThreshold * c.startupProbe.periodSeconds >= 300,
    'a cold start gets minutes',
  );
  assert.equal(
    c.ports.map((p: { containerPort: number }) => p.containerPort),
    [8080, 9000],
  );
});

test('the Ingress routes only public paths to port 8080, with TLS and class', () => {
  const objects = compileIdentityServer(
    server({ ingress: { enabled: true, host: 'id.example.com', className: 'nginx', tlsSecretName: 'tls' } }),
    inputs,
  );
  const ingress = find(objects, 'Ingress') as any;
  assert.is(ingress.spec.ingressClassName, 'nginx');
  assert.equal(ingress.spec.tls, [{ hosts: ['id.example.com'], secretName: 'tls' }]);
  const paths = ingress.spec.rules[0].http.paths;
  assert.ok(
    paths.every((p: any) => !p.path.startsWith('/admin')),
    'never /admin/',
  );
  assert.ok(
    paths.every((p: any) => p.backend.service.port.name === 'http'),
    'never the management port',
  );
  assert.ok(paths.some((p: any) => p.path === '/realms/'));
  const env = containerEnv(objects);
  assert.is(env.get('KC_HOSTNAME'), 'https://id.example.com');
  assert.is(env.get('KC_PROXY_HEADERS'), 'xforwarded');
});

test('no Ingress and no discovery Service unless asked for', () => {
  const kinds = compileIdentityServer(server(), inputs).map((o) => `${o.kind}/${o.metadata.name}`);
  assert.equal(kinds, [
    'Secret/kc-admin-credentials',
    'Secret/kc-db-credentials',
    'Service/kc',
    'Deployment/kc',
    'Database/kc-keycloak',
  ]);
});

test('several replicas cluster their caches through a headless discovery Service', () => {
  const objects = compileIdentityServer(server({ replicas: 3 }), inputs);
  const discovery = find(objects, 'Service', 'kc-discovery') as any;
  assert.is(discovery.spec.clusterIP, 'None');
  assert.is(discovery.spec.publishNotReadyAddresses, true);
  const env = containerEnv(objects);
  assert.is(env.get('KC_CACHE'), 'ispn');
  assert.match(env.get('JAVA_OPTS_APPEND') ?? '', 'kc-discovery.identity.svc');
});

test('keytab Secrets and the krb5.conf ConfigMap are mounted read-only; the JVM is told where krb5.conf is', () => {
  const kerberos = {
    keytabs: [{ name: 'sso', secretRef: { name: 'sso-keytab', key: 'http.keytab' } }] as [
      { name: string; secretRef: { name: string; key: string } },
    ],
    krb5ConfigMapRef: { name: 'krb5', key: 'krb5.conf' },
  };
  const objects = compileIdentityServer(server({ replicas: 2, kerberos }), inputs);
  const pod = (find(objects, 'Deployment', 'kc') as any).spec.template.spec;
  assert.equal(pod.volumes, [
    {
      name: 'keytab-sso',
      secret: { secretName: 'sso-keytab', items: [{ key: 'http.keytab', path: 'krb5.keytab' }] },
    },
    { name: 'krb5-conf', configMap: { name: 'krb5', items: [{ key: 'krb5.conf', path: 'krb5.conf' }] } },
  ]);
  // Directory mounts (no subPath): the kubelet refreshes a rotated Secret in place.
  assert.equal(pod.containers[0].volumeMounts, [
    { name: 'keytab-sso', mountPath: '/etc/realmforge/keytabs/sso', readOnly: true },
    { name: 'krb5-conf', mountPath: '/etc/realmforge/krb5', readOnly: true },
  ]);
  const env = containerEnv(objects);
  // One JAVA_OPTS_APPEND carries both JVM options (a second variable of the same name would replace the first).
  assert.is(
    env.get('JAVA_OPTS_APPEND'),
    '-Djgroups.dns.query=kc-discovery.identity.svc.cluster.local -Djava.security.krb5.conf=/etc/realmforge/krb5/krb5.conf',
  );
  const plain = (find(compileIdentityServer(server(), inputs), 'Deployment', 'kc') as any).spec.template.spec;
  assert.equal([plain.volumes, plain.containers[0].volumeMounts], [undefined, undefined]);
});

test('every object in the server namespace is owned by the IdentityServer and labelled', () => {
  const objects = compileIdentityServer(
    server({ replicas: 2, ingress: { enabled: true, host: 'h.example' } }),
    inputs,
  );
  for (const o of objects.filter((x) => x.metadata.namespace === 'identity')) {
    assert.equal(o.metadata.ownerReferences?.[0], {
      apiVersion: 'realmforge.dev/v1',
      blockOwnerDeletion: true,
      controller: true,
      kind: 'IdentityServer',
      name: 'kc',
      uid: 'uid-1',
    });
    assert.is(o.metadata.labels?.['app.kubernetes.io/managed-by'], 'realmforge');
    assert.is(o.metadata.labels?.['app.kubernetes.io/instance'], 'kc');
  }
});

test('the CNPG Database lives in the database namespace, labelled back to its server', () => {
  const objects = compileIdentityServer(
    server({ database: { cluster: 'pg', namespace: 'db', name: 'iam' } }),
    inputs,
  );
  const db = find(objects, 'Database') as any;
  assert.is(db.apiVersion, 'postgresql.cnpg.io/v1');
  assert.is(db.metadata.namespace, 'db');
  assert.is(db.metadata.ownerReferences, undefined);
  assert.is(db.metadata.labels['realmforge.dev/identity-server'], 'identity.kc');
  assert.equal(db.spec, { cluster: { name: 'pg' }, ensure: 'present', name: 'iam', owner: 'app' });
});

test('the Database object name is a valid object name even for a database name with underscores', () => {
  const objects = compileIdentityServer(
    server({ database: { cluster: 'pg', namespace: 'db', name: 'kc_main_' } }),
    inputs,
  );
  assert.is(find(objects, 'Database').metadata.name, 'identity-kc-kc-main');
  assert.is((find(objects, 'Database') as any).spec.name, 'kc_main_');
});

test('the credentials Secrets hold base64 data under username and password', () => {
  const objects = compileIdentityServer(server(), inputs);
  const admin = find(objects, 'Secret', 'kc-admin-credentials') as any;
  assert.is(Buffer.from(admin.data.password, 'base64').toString(), 'admin-password-123');
  const db = find(objects, 'Secret', 'kc-db-credentials') as any;
  assert.is(Buffer.from(db.data.username, 'base64').toString(), 'app');
  assert.is(db.type, 'kubernetes.io/basic-auth');
});

test("Keycloak's realms cache has room for about a thousand realms from 26 on; spec.additionalOptions sizes it otherwise", () => {
  const cache = (spec: Parameters<typeof server>[0]) =>
    containerEnv(compileIdentityServer(server(spec), inputs)).get('KC_CACHE_EMBEDDED_REALMS_MAX_COUNT');
  assert.is(cache({}), '100000');
  assert.is(cache({ image: { tag: '25.0.6' } }), undefined, 'Keycloak 25 has no such option');
  const sized = find(
    compileIdentityServer(
      server({ additionalOptions: [{ name: 'cache-embedded-realms-max-count', value: '20000' }] }),
      inputs,
    ),
    'Deployment',
  ) as any;
  const set = sized.spec.template.spec.containers[0].env.filter(
    (e: { name: string }) => e.name === 'KC_CACHE_EMBEDDED_REALMS_MAX_COUNT',
  );
  assert.equal(set, [{ name: 'KC_CACHE_EMBEDDED_REALMS_MAX_COUNT', value: '20000' }], 'once, the user value');
});

test('extra Keycloak options become KC_ variables, from a Secret when asked', () => {
  const env = containerEnv(
    compileIdentityServer(
      server({
        additionalOptions: [
          { name: 'log-level', value: 'DEBUG' },
          { name: 'spi-email-template-x', secret: { name: 's', key: 'k' } },
        ],
      }),
      inputs,
    ),
  );
  assert.is(env.get('KC_LOG_LEVEL'), 'DEBUG');
  assert.is(env.get('KC_SPI_EMAIL_TEMPLATE_X'), 'secret:s/k');
});

test.run();
