// A client's protocol mappers as a managed collection. A mapper has nowhere to carry an owner, so the client
// records the mappers it manages in its attribute realmforge.dev/managed-mappers (the name it always had).
import type { Collection } from './collection.ts';

const enc = encodeURIComponent;

/** The client attribute listing the protocol mappers the operator created. */
export const mappersLedger = 'realmforge.dev/managed-mappers';

/** The protocol mappers of the client with internal id `uuid` in `realm`. */
export function protocolMappers(realm: string, uuid: string): Collection {
  const base = `/${enc(realm)}/clients/${enc(uuid)}/protocol-mappers`;
  return {
    noun: 'protocol mapper',
    field: 'spec.protocolMappers',
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
