// Applies an IdentityServer's compiled objects and removes the ones it no longer wants (the Ingress once it is
// turned off, the discovery Service once replicas drop to one). Only what differs from the cluster is sent, and
// nothing at all while an object of a child's name belongs to someone else (ChildNameConflict): never taken over.
import { serverRefLabel, serverRefValue } from '../../compile/cnpg-database.ts';
import type { KubeObject } from '../../compile/kube-object.ts';
import { labelValue } from '../../compile/names.ts';
import type { Deps } from '../../runtime/deps.ts';
import { applyReason, withAppliedHash } from '../../runtime/desired-state.ts';
import { refOf, refString } from '../../runtime/kube-client.ts';
import { StuckError } from '../shared/stuck-error.ts';

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

/** The server a sync works for: its UID (what our controller references name) and its names. */
export type ChildOwner = { uid: string; namespace: string; name: string };

/**
 * Whether a live object of one of the server's child names is this server's: in its namespace, a controller owner
 * reference to its UID; beyond it (where owner references cannot point), the server's reference label.
 */
function isOurChild(owner: ChildOwner, live: KubeObject): boolean {
  if (live.metadata.namespace !== owner.namespace) {
    const labels = live.metadata.labels ?? {};
    return (
      labels['app.kubernetes.io/managed-by'] === 'realmforge' &&
      labels[serverRefLabel] === serverRefValue(owner.namespace, owner.name)
    );
  }
  return live.metadata.ownerReferences?.some((r) => r.controller && r.uid === owner.uid) === true;
}

/** The conflict to report when objects that are not ours stand where children go. */
function childConflict(owner: ChildOwner, taken: readonly KubeObject[]) {
  const names = taken.map((o) => refString(refOf(o))).join(', ');
  const [are, them] = taken.length > 1 ? ['exist and are', 'them'] : ['exists and is', 'it'];
  return new StuckError(
    'conflict',
    'Failed',
    'ChildNameConflict',
    `${names} already ${are} not IdentityServer ${owner.namespace}/${owner.name}'s; the operator leaves ${them} untouched and creates nothing: delete ${them} or give the IdentityServer another name; the operator looks again at the next resync (or annotate the IdentityServer with reconcile=<any new value>)`,
  );
}

/**
 * Applies each desired object that is missing, changed or drifted (all of them when `force`), then prunes. An
 * object of a child's name that is not this server's is never written: nothing is applied, and the sync throws
 * ChildNameConflict naming it.
 */
export async function syncChildren(
  deps: Deps,
  owner: ChildOwner,
  desired: readonly KubeObject[],
  force: boolean,
): Promise<SyncResult> {
  const result: SyncResult = { applied: [], deleted: [], stored: [] };
  const wants = desired.map(withAppliedHash);
  const lives = await Promise.all(wants.map((want) => deps.kube.get(refOf(want))));
  const taken = wants.filter((_, i) => {
    const live = lives[i];
    return live !== undefined && !isOurChild(owner, live);
  });
  if (taken.length) throw childConflict(owner, taken);
  for (const [i, want] of wants.entries()) {
    const live = lives[i];
    const reason = force ? 'forced' : applyReason(want, live);
    if (!reason) continue;
    result.stored.push(await deps.kube.apply(want));
    result.applied.push(`${refString(refOf(want))} (${reason})`);
  }
  const wanted = new Set(desired.map((o) => refString(refOf(o))));
  // Every compiled child carries these labels (serverLabels); the same selector as the watches, so the read
  // comes from their cache.
  const selector = `app.kubernetes.io/instance=${labelValue(owner.name)},app.kubernetes.io/managed-by=realmforge,app.kubernetes.io/name=keycloak`;
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
