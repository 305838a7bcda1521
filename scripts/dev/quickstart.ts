// The resources `realmforge dev up` applies (the server, realm and client of examples/, adapted to this machine as
// the output says), the live display of their phases until Ready, and the summary a user copies from.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { IdentityClientSpec } from '../../generated/types/crds/identityclient.ts';
import type { IdentityRealmSpec } from '../../generated/types/crds/identityrealm.ts';
import type { IdentityServerSpec } from '../../generated/types/crds/identityserver.ts';
import type { TestEnv } from '../testenv/harness.ts';
import { databaseCluster } from '../testenv/identity-fixtures.ts';
import { grantSecretAccess } from '../testenv/operator-process.ts';
import { repoRoot } from '../testenv/paths.ts';
import { devKeycloak } from './prerequisites.ts';

type Obj<Spec = unknown> = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string };
  spec: Spec;
};

const example = <Spec>(file: string) =>
  parse(readFileSync(join(repoRoot, 'examples', file), 'utf8')) as Obj<Spec>;

/** The three example resources, and what was changed to run them here. */
export function quickstartResources(): {
  server: Obj<IdentityServerSpec>;
  realm: Obj<IdentityRealmSpec>;
  client: Obj<IdentityClientSpec>;
  changes: string[];
} {
  const server = example<IdentityServerSpec>('identityserver-minimal.yaml');
  const realm = example<IdentityRealmSpec>('identityrealm.yaml');
  const client = example<IdentityClientSpec>('identityclient.yaml');
  const image = server.spec.image;
  if (!image) throw new Error('examples/identityserver-minimal.yaml has no spec.image');
  const changes = [
    `examples/identityserver-minimal.yaml: image tag ${image.tag} -> ${devKeycloak} (the Keycloak this machine has)`,
  ];
  image.tag = devKeycloak;
  if (realm.spec.serverRef.name !== server.metadata.name) {
    changes.push(
      `examples/identityrealm.yaml: serverRef ${realm.spec.serverRef.name} -> ${server.metadata.name}`,
    );
    realm.spec.serverRef = { name: server.metadata.name, namespace: server.metadata.namespace };
  }
  return { server, realm, client, changes };
}

/** Namespaces, Secret access in them, the database cluster (marked ready: no CloudNativePG runs here), the resources. */
export async function applyQuickstart(
  env: TestEnv,
  r: ReturnType<typeof quickstartResources>,
): Promise<void> {
  const namespaces = [...new Set([r.server, r.realm, r.client].map((o) => o.metadata.namespace))];
  for (const name of namespaces) {
    await env.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } } as never);
    await grantSecretAccess(env, name);
  }
  const cluster = r.server.spec.database?.cluster;
  if (!cluster) throw new Error('examples/identityserver-minimal.yaml has no spec.database');
  await databaseCluster(env, r.server.metadata.namespace, cluster);
  for (const o of [r.server, r.realm, r.client]) await env.apply(o as never);
}

/** Prints each resource's phase whenever it changes until all are Ready; false after `timeoutMs`. */
export async function watchUntilReady(
  env: TestEnv,
  objects: readonly Obj[],
  print: (line: string) => void,
  timeoutMs: number,
): Promise<boolean> {
  const started = Date.now();
  const last = new Map<string, string>();
  const plural = (kind: string) => `${kind.toLowerCase()}s`;
  for (;;) {
    let ready = 0;
    for (const o of objects) {
      const path = `/apis/realmforge.dev/v1/namespaces/${o.metadata.namespace}/${plural(o.kind)}/${o.metadata.name}`;
      const res = await env.request('GET', path).catch(() => ({ status: 0, body: undefined }));
      const st = res.body?.status ?? {};
      const shown = st.phase
        ? `${st.phase}${st.reason && st.reason !== st.phase ? `/${st.reason}` : ''}`
        : 'waiting for the operator';
      const key = `${o.kind} ${o.metadata.namespace}/${o.metadata.name}`;
      if (last.get(key) !== shown) {
        last.set(key, shown);
        const secs = `${Math.round((Date.now() - started) / 1000)}s`.padStart(5);
        print(
          `${secs}  ${key.padEnd(44)} ${shown}${st.phase && st.phase !== 'Ready' && st.message ? `: ${st.message}` : ''}`,
        );
      }
      if (st.phase === 'Ready') ready++;
    }
    if (ready === objects.length) return true;
    if (Date.now() - started > timeoutMs) return false;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

const sq = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/** The summary: where Keycloak answers, the credentials commands, and a token command that works as printed. */
export function summary(
  env: TestEnv,
  r: ReturnType<typeof quickstartResources>,
  keycloakUrl: string,
  operatorUrl: string,
): string {
  const kubectl = `${env.state.kubectl ?? 'kubectl'} --kubeconfig ${env.state.kubeconfig}`;
  const secret = (ns: string, name: string, key: string) =>
    `$(${kubectl} -n ${ns} get secret ${name} -o jsonpath=${sq(`{.data.${key}}`)} | base64 -d)`;
  const srv = r.server.metadata;
  const admin = `${srv.name}-admin-credentials`;
  const cli = r.client.metadata;
  const creds = r.client.spec.secretName ?? `${cli.name}-credentials`;
  const realm = r.realm.spec.realmName ?? r.realm.metadata.name;
  const tokenUrl = `${keycloakUrl}/realms/${realm}/protocol/openid-connect/token`;
  return [
    '',
    `Keycloak answers at ${keycloakUrl} (IdentityServer ${srv.namespace}/${srv.name}); everything runs on 127.0.0.1 until \`npm stop\`.`,
    '',
    `  cluster access      export KUBECONFIG=${env.state.kubeconfig}`,
    `  admin credentials   echo "${secret(srv.namespace, admin, 'username')} / ${secret(srv.namespace, admin, 'password')}"`,
    `  client credentials  ${kubectl} -n ${cli.namespace} get secret ${creds} -o yaml`,
    '  operator log        npx realmforge dev logs',
    `  diagnose            REALMFORGE_ENDPOINT_MAP=${env.state.endpointMapFile} npx realmforge doctor --kubeconfig ${env.state.kubeconfig} --operator-url ${operatorUrl}`,
    '  stop everything     npm stop   (npx realmforge dev down)',
    '',
    `A token for client ${cli.name} (client credentials grant), with the credentials from its Secret:`,
    '',
    `curl -s ${tokenUrl} -d grant_type=client_credentials -d client_id="${secret(cli.namespace, creds, 'client-id')}" -d client_secret="${secret(cli.namespace, creds, 'client-secret')}"`,
    '',
  ].join('\n');
}
