// A world for the realm and client controllers: an in-memory cluster holding a Ready IdentityServer, its admin
// Secret and the operator's client Secret, an in-memory Keycloak behind it, a manual clock, and builders for realms and clients.
import type { IdentityClient } from '../../../generated/types/crds/identityclient.ts';
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';
import { type ManualClock, manualClock } from '../../../src/core/clock.ts';
import type { KubeObject } from '../../../src/operator/compile/kube-object.ts';
import { keycloakAdmins } from '../../../src/operator/keycloak/admins.ts';
import type { KeycloakDeps } from '../../../src/operator/keycloak/keycloak-deps.ts';
import { loadEndpointMap } from '../../../src/operator/runtime/endpoint-map.ts';
import { fakeKeycloakAdmin } from '../keycloak/fake-keycloak-admin.ts';
import { type FakeKube, fakeKube } from './fake-kube.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');
export const driftIntervalMs = 300_000;

/** A Ready IdentityServer `identity/kc` (extra spec fields merged in). */
export function readyServer(spec: Record<string, unknown> = {}, phase = 'Ready'): KubeObject {
  return {
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityServer',
    metadata: { name: 'kc', namespace: 'identity', uid: 'srv-uid', generation: 1 },
    spec: { image: { tag: '26.0.7' }, database: { cluster: 'pg' }, ...spec },
    status: { phase },
  };
}

/** An IdentityRealm on server identity/kc. */
export function realmResource(
  name: string,
  namespace: string,
  spec: Partial<IdentityRealm['spec']> = {},
  status?: Record<string, unknown>,
): KubeObject {
  return {
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityRealm',
    metadata: { name, namespace, uid: `uid-${namespace}-${name}`, generation: 1 },
    spec: { serverRef: { name: 'kc', namespace: 'identity' }, ...spec },
    ...(status ? { status } : {}),
  } as KubeObject;
}

/** An IdentityClient of realm `realmNamespace/apps`. */
export function clientResource(
  name: string,
  namespace: string,
  spec: Partial<IdentityClient['spec']> = {},
): KubeObject {
  return {
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityClient',
    metadata: { name, namespace, uid: `uid-${namespace}-${name}`, generation: 1 },
    spec: { realmRef: { name: 'apps', namespace: 'identity' }, redirectUris: ['https://app/cb'], ...spec },
  } as KubeObject;
}

/** The world: cluster, Keycloak, clock and the deps the controllers take. */
export type World = {
  kube: FakeKube;
  keycloak: ReturnType<typeof fakeKeycloakAdmin>;
  clock: ManualClock;
  deps: KeycloakDeps;
};

/** A world with `objects` besides the Ready server and its admin Secret. */
export function keycloakWorld(objects: KubeObject[] = [], server = readyServer()): World {
  const kube = fakeKube([
    server,
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'kc-admin-credentials', namespace: 'identity' },
      data: { username: b64('admin'), password: b64('pw') },
    },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'kc-operator-client',
        namespace: 'identity',
        ownerReferences: [
          {
            apiVersion: 'realmforge.dev/v1',
            kind: 'IdentityServer',
            name: 'kc',
            uid: 'srv-uid',
            controller: true,
          },
        ],
      },
      data: { 'client-id': b64('realmforge-operator'), 'client-secret': b64('op-secret') },
    },
    ...objects,
  ]);
  const keycloak = fakeKeycloakAdmin();
  const clock = manualClock();
  let passwords = 0;
  const base = {
    kube,
    http: () => Promise.reject(new Error('no HTTP in controller tests: Keycloak is the in-memory fake')),
    endpoints: loadEndpointMap(undefined),
    clock,
    random: () => 0.5,
    // Each new password differs, as the operator's do (a rotated secret must not equal the one it replaces).
    newPassword: () => `generated-pw-${++passwords}`,
    logger: { info() {}, warn() {}, error() {} },
  };
  // The operator's own admin clients (one per server and identity, handed out as the same object every time),
  // each the in-memory Keycloak.
  const deps: KeycloakDeps = {
    ...base,
    admins: keycloakAdmins(base, () => keycloak.admin),
    driftIntervalMs,
    cleanupGiveUpMs: 300_000,
  };
  return { kube, keycloak, clock, deps };
}

/** Marks a stored object as being deleted now, as the API server does when it has finalizers. */
export function markDeleted(world: World, kind: string, namespace: string, name: string): void {
  const o = world.kube.find(kind, namespace, name) as KubeObject;
  world.kube.put({
    ...o,
    metadata: { ...o.metadata, deletionTimestamp: new Date(world.clock.now()) },
  });
}

/** The stored status of a resource. */
export function statusOf(world: World, kind: string, namespace: string, name: string) {
  return (world.kube.find(kind, namespace, name)?.status ?? {}) as {
    phase?: string;
    reason?: string;
    message?: string;
  };
}

/** Asserts that `promise` rejects with a message matching `pattern`. */
export async function rejects(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error(`expected a rejection matching ${pattern}, got none`);
  if (!pattern.test(error.message)) throw new Error(`rejection "${error.message}" does not match ${pattern}`);
}

/** Creates realm `name` in Keycloak "by hand" (no owner marker), as another tool or a person would. */
export async function handMadeRealm(world: World, name: string): Promise<void> {
  await world.keycloak.admin.call('test', 'POST', '', { realm: name });
  world.keycloak.reset();
}
