// Makes one client in Keycloak equal to its IdentityClient. One read finds it by clientId (the list answer carries
// its fields, protocol mappers and secret); writes go only where something differs. A client is ours when its
// attribute realmforge.dev/owner names the resource; a clientId taken by any other client is a conflict, never
// adopted. Its own fields follow the managed-field rule (a field the spec stops setting goes back to Keycloak's
// default); its protocol mappers, roles and service-account roles are managed collections (see
// keycloak/collections): what the operator created and the spec no longer declares is removed.
import type ClientRepresentation from '@keycloak/keycloak-admin-client/lib/defs/clientRepresentation.js';
import type { IdentityClient } from '../../../../generated/types/crds/identityclient.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import { type ClientInputs, compileClient, hasSecret } from '../../compile/client-representation.ts';
import { graceAttribute, graceSecondsOf } from '../../compile/secret-rotation.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';
import { authzLedgers } from '../../keycloak/collections/authorization.ts';
import { clientFields } from '../../keycloak/collections/client-fields.ts';
import {
  attributeMarker,
  type Item,
  ledger,
  ownerAttribute,
  syncCollection,
} from '../../keycloak/collections/collection.ts';
import { holdLateLedgers, ledgerClaim, recordLateLedgers } from '../../keycloak/collections/late-ledgers.ts';
import {
  declaredBefore,
  managedFieldsAttribute,
  planFields,
} from '../../keycloak/collections/managed-fields.ts';
import { mappersLedger, protocolMappers } from '../../keycloak/collections/protocol-mappers.ts';
import { serviceAccountRolesLedger } from '../../keycloak/collections/role-mappings.ts';
import { clientRoles, roleItem } from '../../keycloak/collections/roles.ts';
import {
  type AuthorizationSummary,
  authorizationLedgers,
  syncAuthorization,
} from './client-authorization.ts';
import { createClient, ownerOf, requireOurs } from './client-create.ts';
import { syncScopes } from './client-scopes.ts';
import { findClient } from './find-client.ts';
import {
  checkServiceAccountRoles,
  serviceAccountKeys,
  syncServiceAccountRoles,
} from './service-account-roles.ts';

export { findClient } from './find-client.ts';
export { ownerAttribute, ownerOf };

/** What a sync did. */
export type ClientSyncResult = {
  uuid: string;
  secret?: string;
  attributes?: Record<string, string>;
  writes: string[];
  /** The authorization summary, when the spec declares authorization services. */
  authorization?: AuthorizationSummary;
};

const enc = encodeURIComponent;
/** The client's ledgers of what is synced after its own update. */
const clientLateLedgers = [mappersLedger, serviceAccountRolesLedger, ...Object.values(authzLedgers)];

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
      ...authorizationLedgers(client),
      ...(graceSecondsOf(client) ? { [graceAttribute]: String(graceSecondsOf(client)) } : {}),
    },
  };
}

/** The client's own fields: everything but its collections and scope assignments. */
function ownFields(desired: ClientRepresentation): Item {
  const { protocolMappers: _, defaultClientScopes: _d, optionalClientScopes: _o, ...fields } = desired;
  return fields as Item;
}

/** The client fields (collections and scopes aside) where Keycloak differs from `desired`. */
export function clientDrift(desired: ClientRepresentation, live: ClientRepresentation): string[] {
  return planFields(ownFields(desired), live as Item, clientFields).drift.filter(
    (f) => f !== managedFieldsAttribute,
  );
}

/** The client with its flow overrides turned from aliases (the spec's) into flow ids (Keycloak's); one read of
 * the realm's flows, only for a client that overrides a flow. */
async function withFlowIds(admin: AdminClient, ns: string, realm: string, desired: ClientRepresentation) {
  const overrides = desired.authenticationFlowBindingOverrides;
  if (!overrides || !Object.keys(overrides).length) return desired;
  const flows =
    (await admin.call<{ id: string; alias: string }[]>(ns, 'GET', `/${enc(realm)}/authentication/flows`))
      .body ?? [];
  const field = { browser: 'browser', direct_grant: 'directGrant' } as Record<string, string>;
  const ids = Object.entries(overrides).map(([binding, alias]) => {
    const flow = flows.find((f) => f.alias === alias);
    if (!flow)
      throw new RealmforgeError(
        'validation',
        `spec.authenticationFlowOverrides.${field[binding] ?? binding}: realm ${realm} has no authentication flow "${alias}"`,
      );
    return [binding, flow.id];
  });
  return { ...desired, authenticationFlowBindingOverrides: Object.fromEntries(ids) };
}

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
  // A resource that had a client before looks for it first; a new one creates it straight away (client-create.ts).
  const found = client.status?.clientUuid ? await findClient(admin, ns, realm, clientId) : undefined;
  let live = found && requireOurs(found, client, realm);
  let createdNow = false;
  if (!live) {
    // What can be refused before a create is refused before it: nothing is sent for a spec that cannot finish.
    await checkServiceAccountRoles(admin, ns, realm, client, clientId);
    // Created with its managed-fields record, as a realm is: else the first sync PUTs the client only to add it.
    const declaredNow = client.spec.roles?.length ? ['roles'] : [];
    const record = (planFields(ownFields(desired), {}, clientFields, declaredNow).body.attributes ??
      {}) as Record<string, string>;
    const created = {
      ...desired,
      attributes: { ...desired.attributes, [managedFieldsAttribute]: record[managedFieldsAttribute] },
    } as ClientRepresentation;
    const body = hasSecret(client) && knownSecret ? { ...created, secret: knownSecret } : created;
    const outcome = await createClient(admin, ns, realm, client, body);
    // A client of ours that was there already (a create whose answer was lost) is synced below like any other.
    if (outcome.created) writes.push('create client');
    createdNow = outcome.created;
    live = outcome.live;
  }
  try {
    return await finishClient(admin, realm, client, desired, live, writes);
  } catch (error) {
    // A client this call created and the spec cannot finish (a refusal or a conflict, not an outage) is undone, so
    // no half-made client stays enabled in Keycloak; the next reconcile creates it again once the spec is fixed.
    const refused = error instanceof RealmforgeError && ['validation', 'conflict'].includes(error.kind);
    if (createdNow && refused) {
      await admin.call(ns, 'DELETE', `/${enc(realm)}/clients/${enc(live.id ?? '')}`);
    }
    throw error;
  }
}

/** Everything after the client exists: its fields, collections, scopes, roles, service account, authorization. */
async function finishClient(
  admin: AdminClient,
  realm: string,
  client: IdentityClient,
  desired: ClientRepresentation,
  live: ClientRepresentation,
  writes: string[],
): Promise<ClientSyncResult> {
  const ns = client.metadata.namespace ?? 'default';
  const base = `/${enc(realm)}/clients/${enc(live.id ?? '')}`;
  const uuid = live.id ?? '';
  const declared = client.spec.roles?.length ? ['roles'] : [];
  const plan = planFields(ownFields(desired), live as Item, clientFields, declared);
  // The mapper and authorization ledgers are recorded once those are synced (late-ledgers.ts).
  const { first, held } = holdLateLedgers(plan, live as Item, clientLateLedgers);
  if (first.drift.length) {
    await admin.call(ns, 'PUT', base, { ...first.body, id: live.id });
    writes.push(`update client (${first.drift.join(', ')})`);
  }
  const mapperResult = await syncCollection(
    admin,
    ns,
    protocolMappers(realm, uuid),
    (desired.protocolMappers ?? []) as Item[],
    ledger(live.attributes, mappersLedger),
    { live: (live.protocolMappers ?? []) as Item[], claim: ledgerClaim(admin, ns, base, mappersLedger) },
  );
  writes.push(...mapperResult.writes);
  await syncScopes(admin, ns, realm, base, desired, live, writes);
  const roleResult = await syncCollection(
    admin,
    ns,
    clientRoles(realm, uuid),
    (client.spec.roles ?? []).map((r) => attributeMarker(ownerOf(client)).mark(roleItem(r))),
    attributeMarker(ownerOf(client)),
    { declaredBefore: declaredBefore(live as Item, clientFields, 'roles') },
  );
  writes.push(...roleResult.writes);
  await syncServiceAccountRoles(admin, ns, realm, base, client, live, writes, first.drift.length > 0);
  const authorization = await syncAuthorization(admin, ns, realm, uuid, client, live, writes);
  writes.push(...(await recordLateLedgers(admin, ns, base, { ...plan.body, id: live.id }, held)));
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
  if (!live?.id || live.attributes?.[ownerAttribute] !== ownerOf(client))
    return { disabled: false, wrote: false };
  if (live.enabled === false) return { disabled: true, wrote: false };
  await admin.call(ns, 'PUT', `/${enc(realm)}/clients/${enc(live.id)}`, {
    id: live.id,
    clientId: live.clientId,
    enabled: false,
  });
  return { disabled: true, wrote: true };
}

/** Deletes the resource's client from Keycloak when it exists and is ours. */
export async function deleteClient(admin: AdminClient, realm: string, client: IdentityClient): Promise<void> {
  const ns = client.metadata.namespace ?? 'default';
  const live = await findClient(admin, ns, realm, desiredClient(client).clientId as string).catch((e) => {
    if (e instanceof RealmforgeError && e.kind === 'not_found') return undefined;
    throw e;
  });
  if (!live?.id || live.attributes?.[ownerAttribute] !== ownerOf(client)) return;
  await admin.call(ns, 'DELETE', `/${enc(realm)}/clients/${enc(live.id)}`);
}
