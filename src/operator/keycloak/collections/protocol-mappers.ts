// The protocol mappers of a client or a client scope as a managed collection. A mapper has nowhere to carry an
// owner, so its parent records the mappers it manages in its attribute realmforge.dev/managed-mappers.
import type ClientRepresentation from '@keycloak/keycloak-admin-client/lib/defs/clientRepresentation.js';
import type { AdminClient } from '../admin-client.ts';
import { clientPath } from './clients.ts';
import { type Collection, type Item, ledger, syncCollection } from './collection.ts';
import { ledgerClaim } from './late-ledgers.ts';

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

/** Makes the protocol mappers of client `live` (as its list answer has them) equal to `desired`'s; a mapper is
 * recorded in the client's ledger before it is created. Returns the writes. */
export async function syncClientMappers(
  admin: AdminClient,
  ns: string,
  realm: string,
  desired: ClientRepresentation,
  live: ClientRepresentation,
): Promise<string[]> {
  const uuid = live.id ?? '';
  const want = (desired.protocolMappers ?? []) as Item[];
  const owned = ledger(live.attributes, mappersLedger);
  const options = {
    live: (live.protocolMappers ?? []) as Item[],
    claim: ledgerClaim(admin, ns, clientPath(realm, uuid), mappersLedger),
  };
  return (await syncCollection(admin, ns, protocolMappers(realm, uuid), want, owned, options)).writes;
}
