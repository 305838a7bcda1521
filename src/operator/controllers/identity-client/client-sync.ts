// Makes one client in Keycloak equal to its IdentityClient: the ordered steps, each one section of the client in
// keycloak/collections (clients.ts finds and creates it; then its fields, protocol mappers, scope links, roles,
// service-account roles and authorization). One read finds it by clientId (the list answer carries its fields,
// protocol mappers and secret); writes go only where something differs. A client is ours when its attribute
// realmforge.dev/owner names the resource (client-owner.ts); a clientId taken by any other client is a conflict,
// never adopted. What the operator created and the spec no longer declares is removed.
import type ClientRepresentation from '@keycloak/keycloak-admin-client/lib/defs/clientRepresentation.js';
import type { IdentityClient } from '../../../../generated/types/crds/identityclient.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import { type ClientInputs, compileClient, hasSecret } from '../../compile/client-representation.ts';
import { graceAttribute, graceSecondsOf } from '../../compile/secret-rotation.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';
import {
  type AuthorizationSummary,
  authorizationLedgers,
  syncAuthorization,
} from '../../keycloak/collections/authorization.ts';
import { syncClientFields, withFieldRecord, withFlowIds } from '../../keycloak/collections/client-fields.ts';
import { syncClientScopeLinks } from '../../keycloak/collections/client-scope-links.ts';
import {
  checkServiceAccountRoles,
  serviceAccountKeys,
  syncServiceAccountRoles,
} from '../../keycloak/collections/client-service-account.ts';
import {
  clientPath,
  createClient,
  deleteClientById,
  disableClientById,
  findClient,
} from '../../keycloak/collections/clients.ts';
import { itemLedgerAttribute, ownerAttribute } from '../../keycloak/collections/collection.ts';
import { mappersLedger, syncClientMappers } from '../../keycloak/collections/protocol-mappers.ts';
import { serviceAccountRolesLedger } from '../../keycloak/collections/role-mappings.ts';
import { syncClientRoles } from '../../keycloak/collections/roles.ts';
import { sectionLedgers } from '../../keycloak/collections/section-ownership.ts';
import { observeOnly } from '../shared/observe.ts';
import { isOurs, ownerOf, requireOurs } from './client-owner.ts';

/** What a sync did. */
export type ClientSyncResult = {
  uuid: string;
  secret?: string;
  attributes?: Record<string, string>;
  writes: string[];
  /** The authorization summary, when the spec declares authorization services. */
  authorization?: AuthorizationSummary;
};

/** The representation to create or compare: the compiled fields plus the ownership and ledger attributes. */
export function desiredClient(client: IdentityClient, inputs: ClientInputs = {}): ClientRepresentation {
  const compiled = compileClient(client, inputs);
  const mappers = (compiled.protocolMappers ?? []).map((m) => m.name).join(',');
  const saRoles = serviceAccountKeys(client).join(',');
  // Keycloak drops attributes with an empty value, so an empty list is left out (else it would be drift forever).
  return {
    ...compiled,
    attributes: {
      ...compiled.attributes,
      [ownerAttribute]: ownerOf(client),
      ...(mappers ? { [mappersLedger]: mappers } : {}),
      ...(saRoles ? { [serviceAccountRolesLedger]: saRoles } : {}),
      ...itemLedgerAttribute(
        sectionLedgers.roles,
        (client.spec.roles ?? []).map((r) => r.name),
      ),
      ...authorizationLedgers(client),
      ...(graceSecondsOf(client) ? { [graceAttribute]: String(graceSecondsOf(client)) } : {}),
    },
  };
}

/** The collections the spec declares, for the client's managed-fields record (managed-fields.ts). */
const declaredCollections = (client: IdentityClient) => (client.spec.roles?.length ? ['roles'] : []);

/**
 * Creates or corrects the client; throws a conflict error when its clientId belongs to another client. A client
 * created anew takes `knownSecret`: the one its credentials Secret holds, so applications keep working, or a new
 * one the operator made (so the create's answer is the whole client: nothing is read back).
 */
export async function syncClient(
  admin: AdminClient,
  realm: string,
  client: IdentityClient,
  knownSecret?: string,
  inputs: ClientInputs = {},
): Promise<ClientSyncResult> {
  const ns = client.metadata.namespace ?? 'default';
  const desired = await withFlowIds(admin, ns, realm, desiredClient(client, inputs));
  const clientId = desired.clientId as string;
  const writes: string[] = [];
  // A resource that had a client before, or expects one (adoption, observe-only), looks for it first; a new one
  // creates it straight away (clients.ts).
  const lookFirst = client.status?.clientUuid || client.spec.adoptExisting || observeOnly(client);
  const found = lookFirst ? await findClient(admin, ns, realm, clientId) : undefined;
  let live = found && requireOurs(found, client, realm);
  let createdNow = false;
  if (!live) {
    // What can be refused before a create is refused before it: nothing is sent for a spec that cannot finish.
    await checkServiceAccountRoles(admin, ns, realm, client, clientId);
    const created = withFieldRecord(desired, declaredCollections(client));
    const body = hasSecret(client) && knownSecret ? { ...created, secret: knownSecret } : created;
    const outcome = await createClient(admin, ns, realm, body);
    // A client that had the clientId already is carried on with only when it is ours (an earlier create whose
    // answer was lost), and synced below like any other.
    live = outcome.found ? requireOurs(outcome.live, client, realm) : outcome.live;
    if (outcome.created) writes.push('create client');
    createdNow = outcome.created;
  }
  try {
    return await finishClient(admin, realm, client, desired, live, writes);
  } catch (error) {
    // A client this call created and the spec cannot finish (a refusal or a conflict, not an outage) is undone, so
    // no half-made client stays enabled in Keycloak; the next reconcile creates it again once the spec is fixed.
    const refused = error instanceof RealmforgeError && ['validation', 'conflict'].includes(error.kind);
    if (createdNow && refused) await deleteClientById(admin, ns, realm, live.id ?? '');
    throw error;
  }
}

/** Everything after the client exists, in order: its fields, protocol mappers, scopes, roles, service account and
 * authorization, then the ledgers its fields update held back (late-ledgers.ts). */
async function finishClient(
  admin: AdminClient,
  realm: string,
  client: IdentityClient,
  desired: ClientRepresentation,
  live: ClientRepresentation,
  writes: string[],
): Promise<ClientSyncResult> {
  const ns = client.metadata.namespace ?? 'default';
  const fields = await syncClientFields(admin, ns, realm, desired, live, declaredCollections(client));
  writes.push(...fields.writes);
  writes.push(...(await syncClientMappers(admin, ns, realm, desired, live)));
  writes.push(...(await syncClientScopeLinks(admin, ns, realm, desired, live)));
  const path = clientPath(realm, live.id ?? '');
  const owner = { owner: ownerOf(client), adopt: client.spec.adoptExisting, recorded: live.attributes, path };
  writes.push(...(await syncClientRoles(admin, ns, realm, live, client.spec.roles ?? [], owner)));
  const fresh = fields.writes.length > 0;
  writes.push(...(await syncServiceAccountRoles(admin, ns, realm, client, live, fresh)));
  const authorization = await syncAuthorization(admin, ns, realm, client, live, writes);
  writes.push(...(await fields.record()));
  const attributes = live.attributes as Record<string, string> | undefined;
  return { uuid: live.id as string, secret: live.secret, attributes, writes, authorization };
}

/**
 * Disables the resource's client in Keycloak when it exists and is ours. Returns whether such a client exists
 * (and is now disabled), and whether this call had to write: a client disabled earlier is reported, not rewritten.
 */
export async function disableClient(
  admin: AdminClient,
  realm: string,
  client: IdentityClient,
): Promise<{ disabled: boolean; wrote: boolean }> {
  const ns = client.metadata.namespace ?? 'default';
  const live = await findClient(admin, ns, realm, desiredClient(client).clientId as string);
  if (!live?.id || !isOurs(live, client)) return { disabled: false, wrote: false };
  if (live.enabled === false) return { disabled: true, wrote: false };
  await disableClientById(admin, ns, realm, live);
  return { disabled: true, wrote: true };
}

/** Deletes the resource's client from Keycloak when it exists and is ours. */
export async function deleteClient(admin: AdminClient, realm: string, client: IdentityClient): Promise<void> {
  const ns = client.metadata.namespace ?? 'default';
  const live = await findClient(admin, ns, realm, desiredClient(client).clientId as string).catch((e) => {
    if (e instanceof RealmforgeError && e.kind === 'not_found') return undefined;
    throw e;
  });
  if (!live?.id || !isOurs(live, client)) return;
  await deleteClientById(admin, ns, realm, live.id);
}
