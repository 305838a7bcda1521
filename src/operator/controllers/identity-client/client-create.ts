// Creating a client, and the ownership rule every client found by its clientId passes. A resource that has never
// had a client in Keycloak (no status.clientUuid) sends its POST without looking first: one call per new client,
// as a direct script makes (the scale bench's clients were held back by the operator's own global rate limit at two
// calls each). Keycloak refuses a second client with one clientId (409), so the POST cannot duplicate one; the 409
// is then read by clientId and judged like any client found: ours (an earlier create whose answer or status write
// was lost) is carried on with, anyone else's is a ClientIdConflict, never adopted or written.
import type ClientRepresentation from '@keycloak/keycloak-admin-client/lib/defs/clientRepresentation.js';
import type { IdentityClient } from '../../../../generated/types/crds/identityclient.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';
import { ownerAttribute } from '../../keycloak/collections/collection.ts';
import { createReadingBack } from '../../keycloak/outcome-unknown.ts';
import { StuckError } from '../shared/stuck-error.ts';
import { realmScopes } from './client-scopes.ts';
import { findClient } from './find-client.ts';

const enc = encodeURIComponent;

/** The owner attribute value of a resource. */
export const ownerOf = (client: IdentityClient) => `${client.metadata.namespace}/${client.metadata.name}`;

/** `live` when it is the resource's own client; a ClientIdConflict when its clientId is another client's. */
export function requireOurs(live: ClientRepresentation, client: IdentityClient, realm: string) {
  if (live.attributes?.[ownerAttribute] === ownerOf(client)) return live;
  const owner = live.attributes?.[ownerAttribute];
  throw new StuckError(
    'conflict',
    'Failed',
    'ClientIdConflict',
    `client ID ${live.clientId} is already taken in realm ${realm} by a client ${owner ? `of IdentityClient ${owner}` : 'this operator does not manage'}; choose another spec.clientId or remove that client`,
  );
}

/** The id at the end of a create's Location header (`.../clients/<id>`), if there is one. */
const createdId = (location: string | undefined) =>
  location ? /\/clients\/([^/?#]+)$/.exec(location)?.[1] : undefined;

/**
 * Creates `body` (the whole client to be, secret included) in `realm` and returns it as it now lives in Keycloak
 * (`created`), or the resource's own client that already had the clientId. Keycloak creates exactly what is sent, so the
 * create's Location header gives the id and nothing is read back (a proxy dropping the header costs one read).
 */
export async function createClient(
  admin: AdminClient,
  ns: string,
  realm: string,
  client: IdentityClient,
  body: ClientRepresentation,
): Promise<{ live: ClientRepresentation; created: boolean }> {
  const clientId = body.clientId as string;
  // Keycloak skips a scope name it does not know on create: checked first, so nothing is created for a bad one
  // and the client as sent is the client as created.
  if (body.defaultClientScopes || body.optionalClientScopes) await realmScopes(admin, ns, realm, body);
  const find = () => findClient(admin, ns, realm, clientId);
  const outcome = await createReadingBack(() => admin.call(ns, 'POST', `/${enc(realm)}/clients`, body), find);
  if ('found' in outcome) return { live: requireOurs(outcome.found, client, realm), created: true };
  const { status, location } = outcome.created;
  if (status === 404) throw new RealmforgeError('not_found', `realm ${realm} does not exist in Keycloak`);
  if (status === 409) {
    const live = await find();
    if (!live)
      throw new RealmforgeError(
        'transient',
        `Keycloak refused client ${clientId} in realm ${realm} as a conflict, but no client has that ID: looking again`,
      );
    return { live: requireOurs(live, client, realm), created: false };
  }
  const id = createdId(location);
  const live = id ? { ...body, id } : await find();
  if (!live?.id)
    throw new RealmforgeError(
      'transient',
      `client ${clientId} is not visible in realm ${realm} after creation`,
    );
  return { live, created: true };
}
