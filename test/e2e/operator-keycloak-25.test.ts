// The older supported line end to end: an IdentityServer with image tag 25.0.x (the process kubelet runs that
// distribution on Java 17) compiles with Keycloak 25's bootstrap admin variables, becomes Ready, and holds a realm
// and a client whose credentials Secret logs in.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type TestEnv, testEnv } from '../../scripts/testenv/harness.ts';
import {
  getResource,
  identityServer,
  kubectlWait,
  operatorSuite,
} from '../../scripts/testenv/identity-fixtures.ts';
import type { OperatorProcess } from '../../scripts/testenv/operator-process.ts';
import { keycloakVersions } from '../../scripts/testenv/versions.ts';
import { loadEndpointMap } from '../../src/operator/runtime/endpoint-map.ts';

const version = keycloakVersions['25'].version;
let env: TestEnv;
let operator: OperatorProcess;
let ns: string;

test.before(async () => {
  env = await testEnv();
  ({ ns, operator } = await operatorSuite(env, 'kc25'));
});

test.after(async () => {
  await operator?.stop();
  await env?.cleanup();
});

test(`an IdentityServer on Keycloak ${version} uses its bootstrap admin variables and becomes Ready`, async () => {
  const server = identityServer(ns, 'idp', 'pg');
  server.spec.image.tag = version;
  await env.apply(server as never);
  await kubectlWait(env, 'identityserver/idp', ns, 600);
  const status = (await getResource(env, 'identityservers', ns, 'idp')).status;
  assert.is(status.version, version);
  const deployment = await env.apps.readNamespacedDeployment({ namespace: ns, name: 'idp' });
  const names = (deployment.spec?.template.spec?.containers[0].env ?? []).map((e) => e.name);
  assert.ok(names.includes('KEYCLOAK_ADMIN') && names.includes('KEYCLOAK_ADMIN_PASSWORD'), names.join());
  assert.not.ok(names.includes('KC_BOOTSTRAP_ADMIN_USERNAME'), 'no Keycloak 26 variable on 25');
});

test(`a realm and a client on Keycloak ${version} become Ready and the credentials Secret logs in`, async () => {
  await env.apply({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityRealm',
    metadata: { name: 'apps', namespace: ns },
    spec: { serverRef: { name: 'idp' }, clientAuthorizationGrants: [ns] },
  } as never);
  await kubectlWait(env, 'identityrealm/apps', ns, 120);
  await env.apply({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityClient',
    metadata: { name: 'svc', namespace: ns },
    spec: { realmRef: { name: 'apps' }, serviceAccount: { enabled: true } },
  } as never);
  await kubectlWait(env, 'identityclient/svc', ns, 120);
  const secret = await env.core.readNamespacedSecret({ namespace: ns, name: 'svc-credentials' });
  const text = (k: string) => Buffer.from(secret.data?.[k] ?? '', 'base64').toString('utf8');
  const keycloakUrl = loadEndpointMap(env.state.endpointMapFile).resolve(`http://idp.${ns}.svc:8080`);
  const res = await fetch(`${keycloakUrl.replace(/\/$/, '')}/realms/apps/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: text('client-id'),
      client_secret: text('client-secret'),
    }),
  });
  assert.is(res.status, 200, await res.clone().text());
  assert.type(((await res.json()) as { access_token?: string }).access_token, 'string');
});

test.run();
