// Makes one realm in Keycloak equal to its IdentityRealm: created in one call with its full representation; on
// later reconciles read once, its own fields (every settings section, see compile/realm/) planned by the
// managed-field rule (a field the spec stops setting goes back to Keycloak's default, that Keycloak line's) and its
// roles, groups, group role mappings, organizations, client scopes and scope links, client policies and the user
// profile by the one collection reconciler (items the operator created and the spec no longer declares are
// deleted; Keycloak's own and hand-made items are never touched). Both run the one list of steps in
// realm-steps.ts. A steady resync reads the realm, and each collection only when declared now or before.
import type RealmRepresentation from '@keycloak/keycloak-admin-client/lib/defs/realmRepresentation.js';
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { type Clock, systemClock } from '../../../core/clock.ts';
import { compileRealm, realmNameOf } from '../../compile/realm-representation.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';
import { changeSignalFields } from '../../keycloak/change-detection.ts';
import { checkFlows, flowsAttributes } from '../../keycloak/collections/authentication-flows.ts';
import { clientPolicyLedgers } from '../../keycloak/collections/client-policies.ts';
import type { Item } from '../../keycloak/collections/collection.ts';
import { defaultRolesAttributes } from '../../keycloak/collections/default-roles.ts';
import {
  compileAll,
  type FederationSecrets,
  federationAttributes,
} from '../../keycloak/collections/federation.ts';
import { checkGroupTree } from '../../keycloak/collections/groups.ts';
import { messagesAttributes } from '../../keycloak/collections/messages.ts';
import { requireOrganizations } from '../../keycloak/collections/organizations.ts';
import { readRealm, realmDeclaredBefore } from '../../keycloak/collections/realm.ts';
import { realmFieldsFor } from '../../keycloak/collections/realm-fields.ts';
import { sectionLedgerAttributes } from '../../keycloak/collections/section-ownership.ts';
import { userProfileLedgerAttributes } from '../../keycloak/collections/user-profile.ts';
import type { RealmTemplate } from '../../keycloak/realm-template.ts';
import type { ServerInfo } from '../../keycloak/server-info.ts';
import { ownershipAttributes, realmOwnerOf } from './realm-ownership.ts';
import { type RealmSync, realmSteps, runs } from './realm-steps.ts';

/** What a realm sync reads from the world: Secrets, the live realm (undefined: absent), Keycloak's major. */
export type RealmSyncInputs = {
  smtpPassword?: string;
  /** The server's hash key (server-hash-key.ts): the secrets above are recorded as HMACs with it. */
  hashKey?: string;
  live?: RealmRepresentation;
  federation?: FederationSecrets;
  /** The keytabs the realm's IdentityServer declares (name -> path in Keycloak); none when unset. */
  keytabs?: ReadonlyMap<string, string>;
  keycloakMajor?: number;
  keycloakVersion?: string;
  /** What the server offers (authenticators are checked against it); absent: not checked. */
  serverInfo?: ServerInfo;
  /** Times realm creates (their timeout scales with what Keycloak needed before); the system clock when unset. */
  clock?: Clock;
  /** The secret of the operator's identity in this realm, created with the realm (realm-identity.ts). */
  realmIdentitySecret?: string;
  /** Keycloak's own sections of a new realm (realm-template.ts); absent: the create carries none of them. */
  template?: RealmTemplate;
};
const noSecrets: FederationSecrets = { identityProviders: new Map(), ldap: new Map() };

/** What a sync did: the live realm's id, the writes it sent, the LDAP providers it manages (name -> id) and the
 * federation providers it wrote (keycloak/collections/federation.ts). */
export type RealmSyncResult = {
  realmId?: string;
  writes: string[];
  ldapIds: Map<string, string>;
  written?: Set<string>;
};

/** The collections the spec declares items of (recorded so that emptying one later still prunes it). */
const declaredCollections = (spec: IdentityRealm['spec']) =>
  [
    spec.roles?.length ? 'roles' : '',
    spec.groups?.length ? 'groups' : '',
    spec.identityProviders?.length ? 'identityProviders' : '',
    spec.userFederation?.ldap?.length || spec.userFederation?.kerberos?.length ? 'userFederation' : '',
    spec.clientScopes?.length ? 'clientScopes' : '',
    spec.organizations?.length ? 'organizations' : '',
  ].filter(Boolean);

/**
 * Creates or corrects the realm; `ns` is the IdentityRealm's namespace (its rate-limit bucket). `live` is the
 * realm as the caller just read it to decide ownership (realm-ownership.ts; undefined: absent), else read here. The
 * owner marker and the SMTP password's hash are desired attributes, so a rotated password is drift like any other.
 */
export async function syncRealm(
  admin: AdminClient,
  realm: IdentityRealm,
  inputs: RealmSyncInputs,
): Promise<RealmSyncResult> {
  const ns = realm.metadata.namespace ?? 'default';
  const spec = realm.spec;
  const compiled = compileRealm(realm, inputs);
  const federationTarget = (
    realmId: string,
    before: (collection: string) => boolean,
    liveAttributes: Record<string, unknown>,
  ) => ({
    ns,
    realmName: realmNameOf(realm),
    realmId,
    owner: realmOwnerOf(realm),
    keycloakMajor: inputs.keycloakMajor ?? 26,
    secrets: inputs.federation ?? noSecrets,
    hashKey: inputs.hashKey,
    keytabs: inputs.keytabs,
    declaredBefore: before,
    liveAttributes,
  });
  // Refused before anything is written: a federation field (an inline secret), a group or flow that is wrong,
  // organizations on a Keycloak without them.
  compileAll(
    realm,
    federationTarget('', () => false, {}),
  );
  checkGroupTree(spec);
  checkFlows(spec, inputs.serverInfo);
  requireOrganizations(inputs.keycloakVersion, Boolean(spec.organizations?.length));
  const rules = realmFieldsFor(inputs.keycloakVersion);
  const name = realmNameOf(realm);
  const live = ('live' in inputs ? inputs.live : await readRealm(admin, ns, name)) as Item | undefined;
  // Admin events on, so a steady resync reads only the newest one (change-detection.ts).
  const signal = changeSignalFields(spec, live);
  const attributes = {
    ...signal.attributes,
    ...compiled.attributes,
    ...ownershipAttributes(realm, inputs.smtpPassword, inputs.hashKey),
    ...federationAttributes(realm, realmNameOf(realm), inputs.federation ?? noSecrets, inputs.hashKey),
    ...defaultRolesAttributes(spec),
    ...flowsAttributes(spec),
    ...messagesAttributes(spec),
    ...clientPolicyLedgers(spec),
    ...userProfileLedgerAttributes(spec),
    ...sectionLedgerAttributes(spec),
  };
  const desired = { ...compiled, ...signal, attributes } as Item;
  const s: RealmSync = {
    admin,
    ns,
    name,
    realm,
    spec,
    desired,
    rules,
    declared: declaredCollections(spec),
    clock: inputs.clock ?? systemClock,
    realmIdentitySecret: inputs.realmIdentitySecret,
    template: inputs.template,
    keycloakVersion: inputs.keycloakVersion,
    created: !live,
    // A new realm has nothing from before.
    before: (collection) => (live ? realmDeclaredBefore(live, rules, collection) : false),
    federationTarget,
    clients: new Map(),
    writes: [],
    live,
  };
  for (const step of realmSteps) {
    if (!runs(step, s)) continue;
    s.writes.push(...(await step.run(s)));
    // A realm created but not read back yet: the next reconcile goes on from there.
    if (!s.live) break;
  }
  const federation = s.federation ?? {
    writes: [],
    ldapIds: new Map<string, string>(),
    written: new Set<string>(),
  };
  return {
    realmId: s.live?.id as string | undefined,
    ...federation,
    writes: [...s.writes, ...federation.writes],
  };
}
