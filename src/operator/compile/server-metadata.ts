import type { V1ObjectMeta } from '@kubernetes/client-node';
import type { IdentityServer } from '../../../generated/types/crds/identityserver.ts';
import { ownerReferences, serverLabels } from './kube-object.ts';

/** Metadata for an object in the IdentityServer's namespace: labels and the owner reference. */
export function ownedMetadata(server: IdentityServer, name: string, extra: V1ObjectMeta = {}): V1ObjectMeta {
  const owners = ownerReferences(server);
  return {
    name,
    namespace: server.metadata.namespace ?? 'default',
    labels: serverLabels(server),
    ...(owners ? { ownerReferences: owners } : {}),
    ...extra,
  };
}
