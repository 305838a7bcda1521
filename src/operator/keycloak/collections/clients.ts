// A realm's clients, known by their clientId (the natural key): found, created and removed. The list answer carries
// a client's fields, protocol mappers and secret, so the one read a steady reconcile sends is findClient's. A new
// client is created without looking first: Keycloak refuses a second client with one clientId (409), so the POST
// cannot duplicate one; the 409 is then read by clientId and handed back for the caller's ownership rule. A create
// whose answer was lost is read back the same way (outcome-unknown.ts).
import type ClientRepresentation from '@keycloak/keycloak-admin-client/lib/defs/clientRepresentation.js';
import { RealmforgeError } from '../../../core/errors.ts';
import type { AdminClient } from '../admin-client.ts';
import { createReadingBack } from '../outcome-unknown.ts';
import { realmScopes } from './client-scope-links.ts';
import { openRecord, sealRecord } from './record.ts';

const enc = encodeURIComponent;

/** The client with internal id `uuid` in `realm`. */
export const clientPath = (realm: string, uuid: string) => `/${enc(realm)}/clients/${enc(uuid)}`;

/** Finds the client with `clientId` in `realm` (one read). */
export async function findClient(admin: AdminClient, ns: string, realm: string, clientId: string) {
  const res = await admin.call<ClientRepresentation[]>(
    ns,
    'GET',
    `/${enc(realm)}/clients?clientId=${enc(clientId)}&max=2`,
  );
  if (res.status === 404) throw new RealmforgeError('not_found', `realm ${realm} does not exist in Keycloak`);
  return openRecord((res.body ?? []).find((c) => c.clientId === clientId));
}

/** The id at the end of a create's Location header (`.../clients/<id>`), if there is one. */
const createdId = (location: string | undefined) =>
  location ? /\/clients\/([^/?#]+)$/.exec(location)?.[1] : undefined;

/**
 * Creates `body` (the whole client to be, secret included) in `realm` and returns it as it now lives in Keycloak
 * (`created`), or the client that already had its clientId (`found`: a 409, or a create whose answer was lost),
 * whose owner the caller judges. Keycloak creates exactly what is sent, so the create's Location header gives the
 * id and nothing is read back (a proxy dropping the header costs one read).
 */
export async function createClient(
  admin: AdminClient,
  ns: string,
  realm: string,
  body: ClientRepresentation,
): Promise<{ live: ClientRepresentation; created: boolean; found: boolean }> {
  const clientId = body.clientId as string;
  // Keycloak skips a scope name it does not know on create: checked first, so nothing is created for a bad one
  // and the client as sent is the client as created.
  if (body.defaultClientScopes || body.optionalClientScopes) await realmScopes(admin, ns, realm, body);
  const find = () => findClient(admin, ns, realm, clientId);
  const sent = sealRecord(body);
  const outcome = await createReadingBack(() => admin.call(ns, 'POST', `/${enc(realm)}/clients`, sent), find);
  if ('found' in outcome) return { live: outcome.found, created: true, found: true };
  const { status, location } = outcome.created;
  if (status === 404) throw new RealmforgeError('not_found', `realm ${realm} does not exist in Keycloak`);
  if (status === 409) {
    const live = await find();
    if (!live)
      throw new RealmforgeError(
        'transient',
        `Keycloak refused client ${clientId} in realm ${realm} as a conflict, but no client has that ID: looking again`,
      );
    return { live, created: false, found: true };
  }
  const id = createdId(location);
  const live = id ? openRecord({ ...sent, id }) : await find();
  if (!live?.id)
    throw new RealmforgeError(
      'transient',
      `client ${clientId} is not visible in realm ${realm} after creation`,
    );
  return { live, created: true, found: false };
}

/** Turns the client `live` off (one write of `enabled`, nothing else). */
export async function disableClientById(
  admin: AdminClient,
  ns: string,
  realm: string,
  live: ClientRepresentation,
) {
  await admin.call(ns, 'PUT', clientPath(realm, live.id ?? ''), {
    id: live.id,
    clientId: live.clientId,
    enabled: false,
  });
}

/** Deletes the client with internal id `uuid` (Keycloak deletes its roles, mappers and authorization with it). */
export async function deleteClientById(admin: AdminClient, ns: string, realm: string, uuid: string) {
  await admin.call(ns, 'DELETE', clientPath(realm, uuid));
}
