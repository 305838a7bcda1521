// The one call that creates a realm: its representation carries every section Keycloak's realm import takes without
// dropping a default of its own (roles, groups, default roles, messages, the user profile), the realm's ownership
// record listing every declared item (record.ts recordForCreate), and the operator's identity in the realm
// (realm-identity.ts), and the flows, required actions and client scopes listed with Keycloak's own
// (realm-create-builtins.ts: listed in an import, they replace Keycloak's built-in ones instead of adding to them).
// With them, the identity providers with their mappers, organizations, client profiles and policies
// (realm-create-sections.ts). Keycloak imports a realm in one transaction, so a body it refuses leaves no realm.
// What the body cannot carry goes through its step after the create (controllers/identity-realm/realm-steps.ts
// names each with its reason).
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { realmIdentityRoles, withRealmIdentity } from '../realm-identity.ts';
import type { RealmTemplate } from '../realm-template.ts';
import type { Item } from './collection.ts';
import { type GroupSpec, groupItem, groupPath } from './groups.ts';
import { type FieldRules, planFields } from './managed-fields.ts';
import { builtInSections } from './realm-create-builtins.ts';
import { createSections } from './realm-create-sections.ts';
import { recordForCreate } from './record.ts';
import type { RoleRefs } from './role-composites.ts';
import { roleItem } from './roles.ts';
import { carriedUserProfile } from './user-profile-create.ts';

type Spec = IdentityRealm['spec'];

/**
 * The roles of Keycloak's own clients, which exist in every new realm. Keycloak's import creates a client role a
 * group names when it is missing, so the body names only these; any other reference is the step's, which checks it.
 */
const builtInClientRoles: Record<string, readonly string[]> = {
  'realm-management': [
    // The manage roles, which the operator's identity in the realm holds, and the rest of realm-management's.
    ...realmIdentityRoles,
    'create-client',
    'impersonation',
    'query-clients',
    'query-groups',
    'query-realms',
    'query-users',
    'realm-admin',
    'view-authorization',
    'view-clients',
    'view-events',
    'view-identity-providers',
    'view-realm',
    'view-users',
  ],
  account: [
    'delete-account',
    'manage-account',
    'manage-account-links',
    'manage-consent',
    'view-applications',
    'view-consent',
    'view-groups',
    'view-profile',
  ],
  broker: ['read-token'],
};

/** Whether every role `refs` names exists once the import has run: a declared realm role, one of Keycloak's own. */
function known(spec: Spec, refs: RoleRefs | undefined): boolean {
  const realmRoles = new Set([
    'offline_access',
    'uma_authorization',
    ...(spec.roles ?? []).map((r) => r.name),
  ]);
  return (
    (refs?.realm ?? []).every((r) => realmRoles.has(r)) &&
    Object.entries(refs?.client ?? {}).every(([client, names]) =>
      names.every((n) => builtInClientRoles[client]?.includes(n)),
    )
  );
}

/** Whether the create call carries the whole of the roles, groups, default roles and messages sections. */
export function createCarriesRolesAndGroups(spec: Spec): boolean {
  return (
    (spec.roles ?? []).every((r) => known(spec, r.composites)) &&
    (spec.groups ?? []).every((g) => known(spec, { realm: g.realmRoles, client: g.clientRoles })) &&
    // Keycloak's import adds only realm roles to the default roles (the representation's `defaultRoles`).
    !Object.keys(spec.defaultRoles?.client ?? {}).length &&
    known(spec, spec.defaultRoles)
  );
}

/** The role references as the representation has them, empty parts left out. */
function composites(refs: RoleRefs | undefined): Item {
  const realm = refs?.realm?.length ? { realm: refs.realm } : {};
  const client = Object.keys(refs?.client ?? {}).length ? { client: refs?.client } : {};
  return Object.keys({ ...realm, ...client }).length ? { composites: { ...realm, ...client } } : {};
}

/** The declared groups under `parent` (a path; '' the top) with their subgroups, nested. */
function groupTree(groups: readonly GroupSpec[], parent: string, withRoles: boolean): Item[] {
  return groups
    .filter((g) => (g.parent ?? '') === parent)
    .map((g) => {
      const subGroups = groupTree(groups, groupPath(g), withRoles);
      return {
        ...groupItem(g),
        ...(withRoles && g.realmRoles?.length ? { realmRoles: g.realmRoles } : {}),
        ...(withRoles && g.clientRoles ? { clientRoles: g.clientRoles } : {}),
        ...(subGroups.length ? { subGroups } : {}),
      };
    });
}

/** The sections besides the realm's own fields: roles with their composites, the group tree with its role
 * mappings, the realm default roles and the message overrides (references the import cannot check: the step's). */
function rolesAndGroups(spec: Spec): Item {
  const whole = createCarriesRolesAndGroups(spec);
  const roles = (spec.roles ?? []).map((r) => ({
    ...roleItem(r),
    ...(whole ? composites(r.composites) : {}),
  }));
  const groups = groupTree(spec.groups ?? [], '', whole);
  const messages = spec.localization?.messages ?? {};
  return {
    ...(roles.length ? { roles: { realm: roles } } : {}),
    ...(groups.length ? { groups } : {}),
    ...(whole && spec.defaultRoles?.realm?.length ? { defaultRoles: spec.defaultRoles.realm } : {}),
    ...(Object.keys(messages).length ? { localizationTexts: messages } : {}),
  };
}

/**
 * What the create call sends, from the compiled desired realm: the realm's fields and attributes (`desired`,
 * planned against nothing: its section entries folded into its ownership record), the sections above, and the
 * operator's identity (its secret; none: a caller that manages the realm some other way), and with Keycloak's own
 * sections (`template`) the flows, required actions and client scopes. A binding to a declared flow the body does
 * not carry is left out: the flow is made after the create.
 */
export function realmCreateBody(input: {
  desired: Item;
  spec: Spec;
  rules: FieldRules;
  declared: readonly string[];
  identitySecret?: string;
  keycloakVersion?: string;
  template?: RealmTemplate;
  /** The identity providers as compiled (compile/realm/identity-providers.ts), and their client secrets by alias. */
  idps?: readonly Item[];
  idpSecrets?: ReadonlyMap<string, string>;
}): Item {
  const builtIns = builtInSections(input.spec, input.template);
  // The actions' settings from before the spec are a field the realm sets, as the realm update would set them.
  const attributes = { ...(input.desired.attributes as Item | undefined), ...builtIns.attributes };
  const { body } = planFields({ ...input.desired, attributes }, {}, input.rules, input.declared);
  const customFlows = new Set(
    builtIns.body.authenticationFlows ? [] : (input.spec.authenticationFlows ?? []).map((f) => f.alias),
  );
  const fields = Object.fromEntries(
    Object.entries(body).filter(([k, v]) => !(k.endsWith('Flow') && customFlows.has(String(v)))),
  );
  const components = carriedUserProfile(input.spec, input.keycloakVersion);
  const sections = createSections({
    spec: input.spec,
    template: input.template,
    organizationsEnabled: input.desired.organizationsEnabled,
    idps: input.idps ?? [],
    idpSecrets: input.idpSecrets ?? new Map(),
  });
  return withRealmIdentity(
    {
      ...builtIns.body,
      ...fields,
      attributes: recordForCreate(fields.attributes as Item | undefined),
      ...rolesAndGroups(input.spec),
      ...(components ? { components } : {}),
      ...sections.body,
    },
    input.identitySecret,
  );
}

/** The spec fields of the sections the create call carries besides the realm's own (a refusal names them). */
export function createBodyFields(
  spec: Spec,
  keycloakVersion: string | undefined,
  template: RealmTemplate | undefined,
  organizationsEnabled: unknown,
): string[] {
  const sections = createSections({ spec, template, organizationsEnabled, idps: [], idpSecrets: new Map() });
  return [
    ...builtInSections(spec, template).fields,
    ...(spec.roles?.length ? ['spec.roles'] : []),
    ...(spec.groups?.length ? ['spec.groups'] : []),
    ...(createCarriesRolesAndGroups(spec) && spec.defaultRoles?.realm?.length ? ['spec.defaultRoles'] : []),
    ...(Object.keys(spec.localization?.messages ?? {}).length ? ['spec.localization.messages'] : []),
    ...(carriedUserProfile(spec, keycloakVersion) ? ['spec.userProfile'] : []),
    ...sections.fields,
  ];
}
