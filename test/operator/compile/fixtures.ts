import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { IdentityServer } from '../../../generated/types/crds/identityserver.ts';
import type { ServerInputs } from '../../../src/operator/compile/identity-server.ts';
import type { KubeObject } from '../../../src/operator/compile/kube-object.ts';

/** Fixed inputs so compiles are byte-stable in tests. */
export const inputs: ServerInputs = {
  admin: { username: 'admin', password: 'admin-password-123' },
  database: { username: 'app', password: 'db-password-456' },
};

/** An example IdentityServer from examples/, with a uid as the API server would assign. */
export function exampleServer(file: string): IdentityServer {
  const server = parse(
    readFileSync(new URL(`../../../examples/${file}`, import.meta.url), 'utf8'),
  ) as IdentityServer;
  server.metadata.uid = '6f1c1d5e-0000-4000-8000-000000000001';
  return server;
}

/** A minimal valid IdentityServer with overrides for the spec. */
export function server(spec: Partial<IdentityServer['spec']> = {}, name = 'kc'): IdentityServer {
  return {
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityServer',
    metadata: { name, namespace: 'identity', uid: 'uid-1' },
    spec: { image: { tag: '26.0.7' }, database: { cluster: 'pg' }, ...spec },
  };
}

/** The one object of a kind (and name, when given) in a compile result. */
export function find(objects: KubeObject[], kind: string, name?: string): KubeObject {
  const found = objects.find((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
  if (!found)
    throw new Error(
      `no ${kind} ${name ?? ''} in ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`,
    );
  return found;
}

type Env = { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } };

/** The Keycloak container's environment as a name -> value or secret-reference map. */
export function containerEnv(objects: KubeObject[]): Map<string, string> {
  const deployment = find(objects, 'Deployment') as {
    spec: { template: { spec: { containers: { env: Env[] }[] } } };
  } & KubeObject;
  return new Map(
    deployment.spec.template.spec.containers[0].env.map((e) => [
      e.name,
      e.value ?? `secret:${e.valueFrom?.secretKeyRef?.name}/${e.valueFrom?.secretKeyRef?.key}`,
    ]),
  );
}
