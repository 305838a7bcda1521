// A client's own settings (see managed-fields.ts): Keycloak's default of every field the operator can leave out of
// a client, so a field removed from the spec goes back to what a new client has; compared with the client as its
// list answer has it, and written in one update where they differ.
import type ClientRepresentation from '@keycloak/keycloak-admin-client/lib/defs/clientRepresentation.js';
import { RealmforgeError } from '../../../core/errors.ts';
import type { AdminClient } from '../admin-client.ts';
import { authzLedgers } from './authorization.ts';
import { clientPath } from './clients.ts';
import type { Item } from './collection.ts';
import { holdLateLedgers, recordLateLedgers } from './late-ledgers.ts';
import { type FieldRules, managedFieldsAttribute, planFields } from './managed-fields.ts';
import { mappersLedger } from './protocol-mappers.ts';
import { recordAttribute, sealRecord } from './record.ts';
import { serviceAccountRolesLedger } from './role-mappings.ts';
import { sectionLedgers } from './section-ownership.ts';

const enc = encodeURIComponent;

export const clientFields: FieldRules = {
  noun: 'client',
  defaults: {
    clientId: undefined,
    name: '',
    description: '',
    enabled: true,
    protocol: 'openid-connect',
    publicClient: false,
    bearerOnly: false,
    clientAuthenticatorType: 'client-secret',
    rootUrl: '',
    baseUrl: '',
    redirectUris: [],
    webOrigins: [],
    standardFlowEnabled: true,
    directAccessGrantsEnabled: false,
    implicitFlowEnabled: false,
    serviceAccountsEnabled: false,
    authorizationServicesEnabled: false,
    consentRequired: false,
    fullScopeAllowed: true,
    frontchannelLogout: false,
    secret: undefined,
  },
  maps: ['attributes', 'authenticationFlowBindingOverrides'],
  sets: ['redirectUris', 'webOrigins'],
  unreadable: [],
  attributes: { map: 'attributes', listValues: false },
};

/** The client's ledgers of what is synced after its own update (late-ledgers.ts). */
const clientLateLedgers = [
  mappersLedger,
  serviceAccountRolesLedger,
  sectionLedgers.roles,
  ...Object.values(authzLedgers),
];

/** The client's own fields: everything but its collections and scope assignments. */
function ownFields(desired: ClientRepresentation): Item {
  const { protocolMappers: _, defaultClientScopes: _d, optionalClientScopes: _o, ...fields } = desired;
  return fields as Item;
}

/** The client fields (collections and scopes aside) where Keycloak differs from `desired`. */
export function clientDrift(desired: ClientRepresentation, live: ClientRepresentation): string[] {
  return planFields(ownFields(desired), live as Item, clientFields).drift.filter(
    (f) => f !== managedFieldsAttribute && f !== recordAttribute,
  );
}

/** `desired` as it is created: with its managed-fields record (`declared`: the collections its spec declares), as
 * a realm is, else the first sync would update the client only to add the record. */
export function withFieldRecord(desired: ClientRepresentation, declared: string[]): ClientRepresentation {
  const planned = planFields(ownFields(desired), {}, clientFields, declared).body.attributes as
    | Record<string, string>
    | undefined;
  const record = planned?.[managedFieldsAttribute];
  return {
    ...desired,
    attributes: { ...desired.attributes, [managedFieldsAttribute]: record },
  } as ClientRepresentation;
}

/** The client with its flow overrides turned from aliases (the spec's) into flow ids (Keycloak's); one read of
 * the realm's flows, only for a client that overrides a flow. */
export async function withFlowIds(
  admin: AdminClient,
  ns: string,
  realm: string,
  desired: ClientRepresentation,
) {
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
 * Updates the client's own fields where `live` differs from `desired` (one write; `declared` as withFieldRecord).
 * The ledgers of its collections synced later are held at their live values (late-ledgers.ts): `record` sends them
 * once those collections are synced.
 */
export async function syncClientFields(
  admin: AdminClient,
  ns: string,
  realm: string,
  desired: ClientRepresentation,
  live: ClientRepresentation,
  declared: string[],
): Promise<{ writes: string[]; record(): Promise<string[]> }> {
  const path = clientPath(realm, live.id ?? '');
  const plan = planFields(ownFields(desired), live as Item, clientFields, declared);
  const { first, held } = holdLateLedgers(plan, live as Item, clientLateLedgers);
  const writes: string[] = [];
  if (first.drift.length) {
    await admin.call(ns, 'PUT', path, sealRecord({ ...first.body, id: live.id }, live));
    writes.push(`update client (${first.drift.join(', ')})`);
  }
  const late = sealRecord({ ...plan.body, id: live.id }, live);
  return { writes, record: () => recordLateLedgers(admin, ns, path, late, held) };
}
