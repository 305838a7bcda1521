// Cleanup of what an IdentityServer compiles outside its own namespace (today: the CloudNativePG Database when
// spec.database.namespace is another namespace). Owner references cannot cross namespaces, so Kubernetes garbage
// collection never removes these: such a server carries the finalizer realmforge.dev/cleanup, and its deletion
// first deletes every object labelled with the server's reference (in any namespace, so a database namespace
// changed since still gets cleaned), then releases the finalizer.
import { serverRefLabel, serverRefValue } from '../../compile/cnpg-database.ts';
import { finalizer, type KubeObject } from '../../compile/kube-object.ts';
import type { ResolvedServer } from '../../compile/resolved-server.ts';
import type { Deps } from '../../runtime/deps.ts';
import { refOf, refString } from '../../runtime/kube-client.ts';
import { deletionRequestedAt, releaseFinalizer } from '../shared/finalizer.ts';

/** The kinds a server may compile outside its own namespace, found again by the serverRefLabel. */
export const crossNamespaceKinds = [{ apiVersion: 'postgresql.cnpg.io/v1', kind: 'Database' }] as const;

/** True when the server compiles objects outside its namespace, so it needs the cleanup finalizer. */
export function needsCleanupFinalizer(resolved: ResolvedServer): boolean {
  return resolved.database.namespace !== resolved.namespace;
}

/** Deletes the server's labelled objects in every namespace other than its own; returns what was deleted. */
export async function deleteCrossNamespaceChildren(deps: Deps, server: KubeObject): Promise<string[]> {
  const own = server.metadata.namespace ?? 'default';
  const selector = `${serverRefLabel}=${serverRefValue(own, server.metadata.name)}`;
  const deleted: string[] = [];
  for (const type of crossNamespaceKinds) {
    // '' lists all namespaces.
    for (const live of await deps.kube.list(type, '', selector)) {
      if (live.metadata.namespace === own) continue; // owner references take care of these
      const ref = refOf({ ...live, apiVersion: type.apiVersion, kind: type.kind });
      await deps.kube.delete(ref);
      deleted.push(refString(ref));
    }
  }
  return deleted;
}

/**
 * The deletion of a server: when it is being deleted, cleans up and releases the finalizer and returns what was
 * deleted; returns undefined when the server is not being deleted.
 */
export async function finishServerDeletion(deps: Deps, server: KubeObject): Promise<string[] | undefined> {
  if (deletionRequestedAt(server) === undefined) return undefined;
  if (!server.metadata.finalizers?.includes(finalizer)) return [];
  const deleted = await deleteCrossNamespaceChildren(deps, server);
  await releaseFinalizer(deps, server);
  return deleted;
}
