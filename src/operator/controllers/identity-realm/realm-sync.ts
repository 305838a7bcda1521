// Makes one realm in Keycloak equal to its IdentityRealm: created in one call with its full representation; on
// later reconciles read once, its own fields (every settings section, see compile/realm/) planned by the
// managed-field rule (a field the spec stops setting goes back to Keycloak's default, that Keycloak line's) and its
// roles, groups, group role mappings, organizations, client scopes and scope links, client policies and the user
// profile by the one collection reconciler (items the operator created and the spec no longer declares are
// deleted; Keycloak's own and hand-made items are never touched). A steady resync reads the realm, and each collection only when declared now or before.
import type RealmRepresentation from '@keycloak/keycloak-admin-client/lib/defs/realmRepresentation.js';
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import { scopeLinkLedgers } from '../../compile/realm/client-scopes.ts';
import { compileRealm, realmNameOf } from '../../compile/realm-representation.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';
import { clientPoliciesLedger, clientProfilesLedger } from '../../keycloak/collections/client-policies.ts';
import { attributeMarker, type Item, syncCollection } from '../../keycloak/collections/collection.ts';
import { groupItem } from '../../keycloak/collections/groups.ts';
import { holdLateLedgers, recordLateLedgers } from '../../keycloak/collections/late-ledgers.ts';
import { declaredBefore, fieldPaths, planFields } from '../../keycloak/collections/managed-fields.ts';
import { messagesLedger } from '../../keycloak/collections/messages.ts';
import {
  organizationItem,
  organizations,
  requireOrganizations,
} from '../../keycloak/collections/organizations.ts';
import { realmFieldsFor } from '../../keycloak/collections/realm-fields.ts';
import { roleItem } from '../../keycloak/collections/roles.ts';
import { userProfileLedgers } from '../../keycloak/collections/user-profile.ts';
import { createReadingBack } from '../../keycloak/outcome-unknown.ts';
import { timedRealmCreate } from '../../keycloak/realm-create-timeout.ts';
import { withRealmIdentity } from '../../keycloak/realm-identity.ts';
import type { ServerInfo } from '../../keycloak/server-info.ts';
import { refusedAsSpec } from '../../keycloak/spec-refused.ts';
import { type Clock, systemClock } from '../../runtime/clock.ts';
import { clientPolicyLedgers, syncClientPolicies } from './client-policies-sync.ts';
import { syncClientScopes } from './client-scopes-sync.ts';
import type { FederationSecrets } from './federation-secrets.ts';
import { compileAll, federationAttributes, syncFederation } from './federation-sync.ts';
import { checkFlows, flowsAttributes, syncFlows } from './flows-sync.ts';
import { checkGroupTree, syncGroupTree } from './groups-sync.ts';
import { messagesAttributes, syncMessages } from './messages-sync.ts';
import { ownershipAttributes, realmOwnerAttribute, realmOwnerOf } from './realm-ownership.ts';
import { planRequiredActions } from './required-actions-sync.ts';
import { defaultRolesAttributes, syncDefaultRoles, syncRoles } from './roles-sync.ts';
import { syncUserProfile, userProfileLedgerAttributes } from './user-profile-sync.ts';

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
};
const noSecrets: FederationSecrets = { identityProviders: new Map(), ldap: new Map() };

/** What a sync did: the live realm's id, the writes it sent, the LDAP providers it manages (name -> id) and the
 * federation providers it wrote (federation-sync.ts). */
export type RealmSyncResult = {
  realmId?: string;
  writes: string[];
  ldapIds: Map<string, string>;
  written?: Set<string>;
};

const enc = encodeURIComponent;
/** The realm's ledgers of what is synced after its own update. */
const realmLateLedgers = [
  messagesLedger,
  ...Object.values(scopeLinkLedgers),
  clientProfilesLedger,
  clientPoliciesLedger,
  ...Object.values(userProfileLedgers),
];

/** Whether the live realm carries `realm`'s owner marker. */
const ownedBy = (live: RealmRepresentation | undefined, realm: IdentityRealm) =>
  live?.attributes?.[realmOwnerAttribute] === realmOwnerOf(realm);

/** The realm named `name` as Keycloak has it, or undefined when there is none. */
export async function readRealm(admin: AdminClient, ns: string, name: string) {
  const res = await admin.call<RealmRepresentation>(ns, 'GET', `/${enc(name)}`);
  return res.status === 404 ? undefined : res.body;
}

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
  const compiled = compileRealm(realm, inputs);
  // A refused federation field (an inline secret) is refused before anything is written.
  compileAll(
    realm,
    federationTarget(realm, inputs, '', () => false, {}),
  );
  const attributes = {
    ...compiled.attributes,
    ...ownershipAttributes(realm, inputs.smtpPassword, inputs.hashKey),
    ...federationAttributes(realm, realmNameOf(realm), inputs.federation ?? noSecrets, inputs.hashKey),
    ...defaultRolesAttributes(realm.spec),
    ...flowsAttributes(realm.spec),
    ...messagesAttributes(realm.spec),
    ...clientPolicyLedgers(realm.spec),
    ...userProfileLedgerAttributes(realm.spec),
  };
  const desired = { ...compiled, attributes } as Item;
  const name = desired.realm as string;
  const marker = attributeMarker(realmOwnerOf(realm));
  const roles = (realm.spec.roles ?? []).map((r) => marker.mark(roleItem(r)));
  // The create call carries the top-level groups; subgroups, composites and client roles follow it.
  const topGroups = (realm.spec.groups ?? []).filter((g) => !g.parent);
  checkGroupTree(realm.spec);
  checkFlows(realm.spec, inputs.serverInfo);
  const flowsOf = (live: Item) => syncFlows(admin, ns, name, realm.spec, live, realm.spec.adoptExisting);
  const clients = new Map<string, string>();
  const rolesAndGroups = async (after: Item, before: (collection: string) => boolean) => [
    ...(await syncRoles(admin, ns, name, realm.spec, marker, before('roles'), clients)),
    ...(await syncGroupTree(admin, ns, name, realm.spec, marker, before('groups'), clients)),
    ...(await syncDefaultRoles(admin, ns, name, realm.spec, after, clients)),
    ...(await syncMessages(admin, ns, name, realm.spec, after)),
  ];
  // The one-document sections (client profiles and policies, the user profile), after the client scopes they
  // may name; `attrs`: the realm's attributes before this update (their ledgers).
  const documents = async (attrs: Record<string, unknown> | undefined) => [
    ...(await syncClientPolicies(admin, ns, name, realm.spec, attrs)),
    ...(await syncUserProfile(admin, ns, name, realm.spec, attrs, inputs.keycloakVersion)),
  ];
  const declared = declaredCollections(realm.spec);
  const realmFields = realmFieldsFor(inputs.keycloakVersion);
  // Refused before anything is written: no half-applied realm on a Keycloak without organizations.
  requireOrganizations(inputs.keycloakVersion, Boolean(realm.spec.organizations?.length));
  const orgItems = (realm.spec.organizations ?? []).map((o) => marker.mark(organizationItem(o)));
  const writes: string[] = [];
  const syncOrganizations = async (declaredBefore: boolean) =>
    writes.push(
      ...(await syncCollection(admin, ns, organizations(name), orgItems, marker, { declaredBefore })).writes,
    );
  const live = 'live' in inputs ? inputs.live : await readRealm(admin, ns, name);
  if (!live) {
    const { body } = planFields(desired, {}, realmFields, declared);
    // A binding to a declared flow is set once the flow exists (below).
    const customFlows = new Set((realm.spec.authenticationFlows ?? []).map((f) => f.alias));
    const full = {
      ...Object.fromEntries(
        Object.entries(body).filter(([k, v]) => !(k.endsWith('Flow') && customFlows.has(String(v)))),
      ),
      ...(roles.length ? { roles: { realm: roles } } : {}),
      ...(topGroups.length
        ? {
            groups: topGroups.map((g) => ({
              ...marker.mark(groupItem(g)),
              realmRoles: g.realmRoles ?? [],
            })),
          }
        : {}),
    };
    const fields = [...fieldPaths(desired, realmFields).keys()];
    const outcome = await createReadingBack(
      () =>
        refusedAsSpec('realm', fields, () =>
          timedRealmCreate(admin, inputs.clock ?? systemClock, (timeoutMs) =>
            admin.call(ns, 'POST', '', withRealmIdentity(full, inputs.realmIdentitySecret), { timeoutMs }),
          ),
        ),
      () => readRealm(admin, ns, name),
    );
    // 409: the realm exists now. Ours when it carries our marker: an earlier create of ours whose answer was lost
    // finished after the read-back (Keycloak was slower than the timeout); never "created by someone else" then.
    const existing =
      'created' in outcome && outcome.created.status === 409 ? await readRealm(admin, ns, name) : undefined;
    if ('created' in outcome && outcome.created.status === 409 && !ownedBy(existing, realm)) {
      throw new RealmforgeError(
        'conflict',
        existing
          ? `realm ${name} was created outside realmforge while this resource was creating it; it is not adopted (the next reconcile reports RealmNameConflict)`
          : `Keycloak answered 409 to creating realm ${name} but does not show it yet (a create still in progress, such as an earlier one whose answer timed out); looking again`,
      );
    }
    writes.push('create realm');
    const after = 'found' in outcome ? outcome.found : (existing ?? (await readRealm(admin, ns, name)));
    const deeper =
      realm.spec.roles?.some((r) => r.composites) ||
      realm.spec.groups?.some((g) => g.parent || g.clientRoles) ||
      realm.spec.defaultRoles ||
      realm.spec.localization?.messages;
    if (after && deeper) writes.push(...(await rolesAndGroups(after as Item, () => true)));
    if (after && (customFlows.size || realm.spec.requiredActions?.length)) {
      if (customFlows.size) writes.push(...(await flowsOf(after as Item)).writes);
      const actions = await planRequiredActions(admin, ns, name, realm.spec, after as Item);
      const withActions = { ...desired, attributes: { ...attributes, ...actions.attributes } };
      const bindings = planFields(withActions, after as Item, realmFields, declared);
      if (bindings.drift.length) {
        await refusedAsSpec('realm', bindings.drift, () =>
          admin.call(ns, 'PUT', `/${enc(name)}`, bindings.body),
        );
        writes.push(`update realm (${bindings.drift.join(', ')})`);
      }
      writes.push(...(await actions.apply()));
    }
    const scopes = realm.spec.clientScopes?.length || realm.spec.realmDefaultClientScopes;
    if (scopes)
      writes.push(
        ...(await syncClientScopes(admin, ns, name, realm.spec, realmOwnerOf(realm), after as Item, false)),
      );
    if (orgItems.length) await syncOrganizations(false);
    writes.push(...(await documents(after?.attributes)));
    const federation = after?.id
      ? await syncFederation(
          admin,
          realm,
          federationTarget(realm, inputs, after.id, () => false, {}),
        )
      : { writes: [], ldapIds: new Map<string, string>(), written: new Set<string>() };
    return { realmId: after?.id, ...federation, writes: [...writes, ...federation.writes] };
  }
  const liveRealm = live as Item;
  // Required actions record their settings from before the spec in the realm update, then are applied after it.
  const actions = await planRequiredActions(admin, ns, name, realm.spec, liveRealm);
  desired.attributes = { ...attributes, ...actions.attributes };
  const plan = planFields(desired, liveRealm, realmFields, declared);
  const before = (collection: string) => declaredBefore(liveRealm, realmFields, collection);
  // The organization API answers only while organizations are on: prune before an update turns them off,
  // create after one turns them on.
  const orgsFirst = liveRealm.organizationsEnabled === true;
  const flows = await flowsOf(liveRealm);
  writes.push(...flows.writes);
  if (orgsFirst) await syncOrganizations(before('organizations'));
  // Federation before the realm's own update: the realm records a bind password's hash only once the component
  // has the password, and drops a provider from its LDAP ledger only once the provider is deleted, so a write
  // that fails is sent again by the next reconcile instead of being forgotten.
  const federation = await syncFederation(
    admin,
    realm,
    federationTarget(
      realm,
      inputs,
      String(live.id),
      before,
      (liveRealm.attributes ?? {}) as Record<string, unknown>,
    ),
  );
  // The ledgers of the one-document sections and the messages are recorded once those are synced.
  const { first, held } = holdLateLedgers(plan, liveRealm, realmLateLedgers);
  if (first.drift.length) {
    await refusedAsSpec('realm', first.drift, () => admin.call(ns, 'PUT', `/${enc(name)}`, first.body));
    writes.push(`update realm (${first.drift.join(', ')})`);
  }
  if (!orgsFirst) await syncOrganizations(before('organizations'));
  writes.push(...(await flows.prune()));
  writes.push(...(await actions.apply()));
  writes.push(...(await rolesAndGroups(liveRealm, before)));
  writes.push(
    ...(await syncClientScopes(
      admin,
      ns,
      name,
      realm.spec,
      realmOwnerOf(realm),
      liveRealm,
      before('clientScopes'),
    )),
  );
  writes.push(...(await documents(liveRealm.attributes as Record<string, unknown>)));
  writes.push(...(await recordLateLedgers(admin, ns, `/${enc(name)}`, plan.body, held)));
  return { realmId: live.id, ...federation, writes: [...writes, ...federation.writes] };
}

function federationTarget(
  realm: IdentityRealm,
  inputs: RealmSyncInputs,
  realmId: string,
  declaredBefore: (collection: string) => boolean,
  liveAttributes: Record<string, unknown>,
) {
  return {
    ns: realm.metadata.namespace ?? 'default',
    realmName: realmNameOf(realm),
    realmId,
    owner: realmOwnerOf(realm),
    keycloakMajor: inputs.keycloakMajor ?? 26,
    secrets: inputs.federation ?? noSecrets,
    hashKey: inputs.hashKey,
    keytabs: inputs.keytabs,
    declaredBefore,
    liveAttributes,
  };
}
