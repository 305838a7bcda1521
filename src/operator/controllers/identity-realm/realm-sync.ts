// Makes one realm in Keycloak equal to its IdentityRealm: created in one call with its full representation; on
// later reconciles read once, its own fields (every settings section, see compile/realm/) planned by the
// managed-field rule (a field the spec stops setting goes back to Keycloak's default, that Keycloak line's) and its
// roles, groups, group role mappings, organizations, client scopes and scope links by the one collection reconciler
// (items the operator created and the spec no longer declares are deleted; Keycloak's own and hand-made items are
// never touched). A steady resync reads the realm, and each collection only when declared now or before.
import type RealmRepresentation from '@keycloak/keycloak-admin-client/lib/defs/realmRepresentation.js';
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import { compileRealm, realmNameOf } from '../../compile/realm-representation.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';
import { attributeMarker, type Item, ledger, syncCollection } from '../../keycloak/collections/collection.ts';
import { groupItem, groups } from '../../keycloak/collections/groups.ts';
import { declaredBefore, fieldPaths, planFields } from '../../keycloak/collections/managed-fields.ts';
import {
  organizationItem,
  organizations,
  requireOrganizations,
} from '../../keycloak/collections/organizations.ts';
import { realmFieldsFor } from '../../keycloak/collections/realm-fields.ts';
import { groupRealmRoles, groupRolesLedger } from '../../keycloak/collections/role-mappings.ts';
import { realmRoles, roleItem } from '../../keycloak/collections/roles.ts';
import { createReadingBack } from '../../keycloak/outcome-unknown.ts';
import { refusedAsSpec } from '../../keycloak/spec-refused.ts';
import { syncClientScopes } from './client-scopes-sync.ts';
import type { FederationSecrets } from './federation-secrets.ts';
import { compileAll, federationAttributes, syncFederation } from './federation-sync.ts';
import { ownershipAttributes, realmOwnerOf } from './realm-ownership.ts';

/** What a realm sync reads from the world: Secrets, the live realm (undefined: absent), Keycloak's major. */
export type RealmSyncInputs = {
  smtpPassword?: string;
  live?: RealmRepresentation;
  federation?: FederationSecrets;
  keycloakMajor?: number;
  keycloakVersion?: string;
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
    spec.userFederation?.ldap?.length ? 'userFederation' : '',
    spec.clientScopes?.length ? 'clientScopes' : '',
    spec.organizations?.length ? 'organizations' : '',
  ].filter(Boolean);

async function syncGroupRoles(
  admin: AdminClient,
  ns: string,
  realm: string,
  spec: IdentityRealm['spec'],
  liveGroups: readonly Item[],
  writes: string[],
) {
  for (const group of spec.groups ?? []) {
    const live = liveGroups.find((g) => g.name === group.name);
    if (!live?.id) continue;
    const mapped = ((live.realmRoles as string[] | undefined) ?? []).map((name) => ({ name }));
    const result = await syncCollection(
      admin,
      ns,
      groupRealmRoles(realm, String(live.id), group.name),
      (group.realmRoles ?? []).map((name) => ({ name })),
      ledger(live.attributes as Record<string, unknown>, groupRolesLedger),
      { live: mapped },
    );
    writes.push(...result.writes);
  }
}

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
    ...ownershipAttributes(realm, inputs.smtpPassword),
    ...federationAttributes(realm, realmNameOf(realm), inputs.federation ?? noSecrets),
  };
  const desired = { ...compiled, attributes } as Item;
  const name = desired.realm as string;
  const marker = attributeMarker(realmOwnerOf(realm));
  const roles = (realm.spec.roles ?? []).map((r) => marker.mark(roleItem(r)));
  const groupItems = (realm.spec.groups ?? []).map(groupItem);
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
    const full = {
      ...body,
      ...(roles.length ? { roles: { realm: roles } } : {}),
      ...(groupItems.length
        ? {
            groups: (realm.spec.groups ?? []).map((g, i) => ({
              ...marker.mark(groupItems[i] as Item),
              realmRoles: g.realmRoles ?? [],
            })),
          }
        : {}),
    };
    const fields = [...fieldPaths(desired, realmFields).keys()];
    const outcome = await createReadingBack(
      () => refusedAsSpec('realm', fields, () => admin.call(ns, 'POST', '', full)),
      () => readRealm(admin, ns, name),
    );
    if ('created' in outcome && outcome.created.status === 409) {
      throw new RealmforgeError(
        'conflict',
        `realm ${name} was created by someone else at the same time; retrying`,
      );
    }
    writes.push('create realm');
    const after = 'found' in outcome ? outcome.found : await readRealm(admin, ns, name);
    const scopes = realm.spec.clientScopes?.length || realm.spec.realmDefaultClientScopes;
    if (scopes)
      writes.push(
        ...(await syncClientScopes(admin, ns, name, realm.spec, realmOwnerOf(realm), after as Item, false)),
      );
    if (orgItems.length) await syncOrganizations(false);
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
  const plan = planFields(desired, liveRealm, realmFields, declared);
  const before = (collection: string) => declaredBefore(liveRealm, realmFields, collection);
  // The organization API answers only while organizations are on: prune before an update turns them off,
  // create after one turns them on.
  const orgsFirst = liveRealm.organizationsEnabled === true;
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
  if (plan.drift.length) {
    await refusedAsSpec('realm', plan.drift, () => admin.call(ns, 'PUT', `/${enc(name)}`, plan.body));
    writes.push(`update realm (${plan.drift.join(', ')})`);
  }
  if (!orgsFirst) await syncOrganizations(before('organizations'));
  const roleResult = await syncCollection(admin, ns, realmRoles(name), roles, marker, {
    declaredBefore: before('roles'),
  });
  writes.push(...roleResult.writes);
  let groupResult = await syncCollection(admin, ns, groups(name), groupItems, marker, {
    declaredBefore: before('groups'),
  });
  writes.push(...groupResult.writes);
  if (groupResult.created)
    groupResult = {
      ...groupResult,
      live: (await admin.call<Item[]>(ns, 'GET', groups(name).listPath)).body ?? [],
    };
  await syncGroupRoles(admin, ns, name, realm.spec, groupResult.live, writes);
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
    declaredBefore,
    liveAttributes,
  };
}
