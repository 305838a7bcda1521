// The protocol mappers of a client or a client scope as a managed collection. A mapper has nowhere to carry an
// owner, so its parent records the mappers it manages in its attribute realmforge.dev/managed-mappers.
import type { Collection } from './collection.ts';

const enc = encodeURIComponent;

/** The client attribute listing the protocol mappers the operator created. */
export const mappersLedger = 'realmforge.dev/managed-mappers';

/** The protocol mappers of the client (or, with `parent` 'client-scopes', the client scope) `uuid` in `realm`. */
export function protocolMappers(
  realm: string,
  uuid: string,
  parent: 'clients' | 'client-scopes' = 'clients',
  field = 'spec.protocolMappers',
): Collection {
  const base = `/${enc(realm)}/${parent}/${enc(uuid)}/protocol-mappers`;
  return {
    noun: 'protocol mapper',
    field,
    listPath: `${base}/models`,
    key: (m) => String(m.name),
    compared: { name: '', protocol: 'openid-connect', protocolMapper: '', config: {} },
    write: {
      mode: 'each',
      createPath: `${base}/models`,
      itemPath: (live) => `${base}/models/${enc(String(live.id))}`,
    },
  };
}
