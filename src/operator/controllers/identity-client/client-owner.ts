// The ownership rule every client found by its clientId passes: a client is the resource's when its attribute
// realmforge.dev/owner names the resource (an earlier create whose answer or status write was lost is carried on
// with); a hand-made one is adopted only when the resource asks (spec.adoptExisting); anyone else's is a
// ClientIdConflict, never written.
import type ClientRepresentation from '@keycloak/keycloak-admin-client/lib/defs/clientRepresentation.js';
import type { IdentityClient } from '../../../../generated/types/crds/identityclient.ts';
import { ownerAttribute } from '../../keycloak/collections/collection.ts';
import { StuckError } from '../shared/stuck-error.ts';

/** The owner attribute value of a resource. */
export const ownerOf = (client: IdentityClient) => `${client.metadata.namespace}/${client.metadata.name}`;

/** Whether `live` is the resource's own client. */
export const isOurs = (live: ClientRepresentation, client: IdentityClient) =>
  live.attributes?.[ownerAttribute] === ownerOf(client);

/** `live` when it is the resource's own client; a ClientIdConflict when its clientId is another client's. */
export function requireOurs(live: ClientRepresentation, client: IdentityClient, realm: string) {
  if (isOurs(live, client)) return live;
  const owner = live.attributes?.[ownerAttribute];
  if (!owner && client.spec.adoptExisting) return live;
  throw new StuckError(
    'conflict',
    'Failed',
    'ClientIdConflict',
    `client ID ${live.clientId} is already taken in realm ${realm} by a client ${owner ? `of IdentityClient ${owner}` : 'this operator does not manage'}; choose another spec.clientId or remove that client${owner ? '' : ', or set spec.adoptExisting: true to take it over'}`,
  );
}
