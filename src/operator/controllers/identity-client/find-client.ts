// Finding a client by its clientId: the one read every client reconcile starts with (the list answer carries its
// fields, protocol mappers and secret).
import type ClientRepresentation from '@keycloak/keycloak-admin-client/lib/defs/clientRepresentation.js';
import { RealmforgeError } from '../../../core/errors.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';

const enc = encodeURIComponent;

/** Finds the client with `clientId` in `realm` (one read). */
export async function findClient(admin: AdminClient, ns: string, realm: string, clientId: string) {
  const res = await admin.call<ClientRepresentation[]>(
    ns,
    'GET',
    `/${enc(realm)}/clients?clientId=${enc(clientId)}&max=2`,
  );
  if (res.status === 404) throw new RealmforgeError('not_found', `realm ${realm} does not exist in Keycloak`);
  return (res.body ?? []).find((c) => c.clientId === clientId);
}
