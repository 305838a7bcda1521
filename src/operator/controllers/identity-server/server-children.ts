// Applies an IdentityServer's compiled objects and removes the ones it no longer wants (the Ingress once it is
// turned off, the discovery Service once replicas drop to one). Only what differs from the cluster is sent.
import type { KubeObject } from '../../compile/kube-object.ts';
import type { Deps } from '../../runtime/deps.ts';
import { applyReason, withAppliedHash } from '../../runtime/desired-state.ts';
import { refOf, refString } from '../../runtime/kube-client.ts';

/**
 * What one sync did, for the reconcile log line and tests: objects applied (with why) and deleted, and each applied
 * object as the API server stored it (fresher than the watch cache, which may not have seen the write yet).
 */
export type SyncResult = { applied: string[]; deleted: string[]; stored: KubeObject[] };

// The kinds a server may stop wanting; everything else it always emits.
const optionalKinds = [
  { apiVersion: 'v1', kind: 'Service' },
  { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress' },
];

/** Applies each desired object that is missing, changed or drifted (all of them when `force`), then prunes. */
export async function syncChildren(
  deps: Deps,
  owner: { uid: string; namespace: string; name: string },
  desired: readonly KubeObject[],
  force: boolean,
): Promise<SyncResult> {
  const result: SyncResult = { applied: [], deleted: [], stored: [] };
  for (const object of desired) {
    const want = withAppliedHash(object);
    const live = await deps.kube.get(refOf(want));
    const reason = force ? 'forced' : applyReason(want, live);
    if (!reason) continue;
    result.stored.push(await deps.kube.apply(want));
    result.applied.push(`${refString(refOf(want))} (${reason})`);
  }
  const wanted = new Set(desired.map((o) => refString(refOf(o))));
  // Every compiled child carries these labels (serverLabels); the same selector as the watches, so the read
  // comes from their cache.
  const selector = `app.kubernetes.io/instance=${owner.name},app.kubernetes.io/managed-by=realmforge,app.kubernetes.io/name=keycloak`;
  for (const type of optionalKinds) {
    for (const live of await deps.kube.list(type, owner.namespace, selector)) {
      const ref = refOf({ ...live, apiVersion: type.apiVersion, kind: type.kind });
      const owned = live.metadata.ownerReferences?.some((r) => r.uid === owner.uid && r.controller);
      if (!owned || wanted.has(refString(ref))) continue;
      await deps.kube.delete(ref);
      result.deleted.push(refString(ref));
    }
  }
  return result;
}
