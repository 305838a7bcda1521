// The cleanup finalizer on realms and clients, added and removed with server-side apply: the operator's field
// manager owns just its entry of metadata.finalizers, so other finalizers are left alone.
import { apiVersion, finalizer, type KubeObject } from '../../compile/kube-object.ts';
import type { Deps } from '../../runtime/deps.ts';

const has = (o: KubeObject) => o.metadata.finalizers?.includes(finalizer) ?? false;

/** Adds the finalizer when missing (one apply, then never again). */
export async function ensureFinalizer(deps: Deps, object: KubeObject): Promise<void> {
  if (has(object)) return;
  const { name, namespace } = object.metadata;
  await deps.kube.apply({
    apiVersion,
    kind: object.kind,
    metadata: { name, namespace, finalizers: [finalizer] },
  });
}

/** Removes the finalizer (letting the API server finish the deletion). */
export async function releaseFinalizer(deps: Deps, object: KubeObject): Promise<void> {
  if (!has(object)) return;
  const { name, namespace } = object.metadata;
  await deps.kube.apply({ apiVersion, kind: object.kind, metadata: { name, namespace, finalizers: [] } });
}

/** When the resource's deletion was requested, or undefined when it is not being deleted. */
export function deletionRequestedAt(object: { metadata: object }): number | undefined {
  const at = (object.metadata as { deletionTimestamp?: string | Date }).deletionTimestamp;
  return at ? new Date(at).getTime() : undefined;
}
