// The one ordered list of steps that makes a realm equal to its IdentityRealm, for a realm created in this sync
// and for an existing one alike. Each step names what must be done before it and what it leaves for later ones (a
// unit test checks the order against them); a step that runs for only one of the two, or only when something is
// true, says so in `create`, `update` or `when`; one that may run after a realm's create call says why that call
// does not carry it (`afterCreate`, realm-create.ts). Every Keycloak call is a section's (keycloak/collections/).
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import type { Clock } from '../../../core/clock.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';
import { syncFlows } from '../../keycloak/collections/authentication-flows.ts';
import { syncClientPolicies } from '../../keycloak/collections/client-policies.ts';
import { syncClientScopes } from '../../keycloak/collections/client-scopes.ts';
import type { Item } from '../../keycloak/collections/collection.ts';
import { syncDefaultRoles } from '../../keycloak/collections/default-roles.ts';
import {
  compileAll,
  createdRealmEntries,
  type FederationSyncResult,
  type FederationTarget,
  syncFederation,
} from '../../keycloak/collections/federation.ts';
import { syncGroupTree } from '../../keycloak/collections/groups.ts';
import type { FieldRules } from '../../keycloak/collections/managed-fields.ts';
import { syncMessages } from '../../keycloak/collections/messages.ts';
import { syncOrganizations } from '../../keycloak/collections/organizations.ts';
import {
  createRealm,
  planRealmUpdate,
  recordRealmLedgers,
  updateRealm,
} from '../../keycloak/collections/realm.ts';
import {
  createBodyFields,
  createCarriesRolesAndGroups,
  realmCreateBody,
} from '../../keycloak/collections/realm-create.ts';
import {
  carriesClientScopes,
  carriesFlowsAndActions,
} from '../../keycloak/collections/realm-create-builtins.ts';
import { carriedSteps } from '../../keycloak/collections/realm-create-sections.ts';
import {
  planRequiredActions,
  type RequiredActionsPlan,
} from '../../keycloak/collections/required-actions.ts';
import { syncRoles } from '../../keycloak/collections/roles.ts';
import type { SectionOwner } from '../../keycloak/collections/section-ownership.ts';
import { syncUserProfile } from '../../keycloak/collections/user-profile.ts';
import { carriedUserProfile } from '../../keycloak/collections/user-profile-create.ts';
import type { RealmTemplate } from '../../keycloak/realm-template.ts';
import { realmOwnerOf } from './realm-ownership.ts';

/** What the steps share. Fixed before the first step: everything but the carried values below. */
export type RealmSync = {
  admin: AdminClient;
  ns: string;
  name: string;
  realm: IdentityRealm;
  spec: IdentityRealm['spec'];
  /** The realm's own representation: its fields and attributes (ownership, ledgers). */
  desired: Item;
  rules: FieldRules;
  /** The collections the spec declares items of (recorded, so that emptying one later still prunes it). */
  declared: readonly string[];
  clock: Clock;
  keycloakVersion?: string;
  /** The secret of the operator's identity in this realm, created with the realm (realm-identity.ts). */
  realmIdentitySecret?: string;
  /** Keycloak's own sections of a new realm (realm-template.ts), read when a realm is to be created. */
  template?: RealmTemplate;
  /** Whether the realm is created by this sync (no realm of its name existed). */
  created: boolean;
  /** Whether the spec declared items of `collection` last time (a new realm: nothing). */
  before: (collection: string) => boolean;
  /** Where the federation sections are synced, from the realm's id and its attributes before this sync. */
  federationTarget: (
    realmId: string,
    before: (c: string) => boolean,
    attrs: Record<string, unknown>,
  ) => FederationTarget;
  /** clientId -> internal id, shared by the sync's lookups. */
  clients: Map<string, string>;
  writes: string[];
} & Partial<Carried>;

/** What steps leave for later ones. */
export type Carried = {
  /** The realm as read before this sync's writes; a new realm: as read back after its create. */
  live: Item;
  actions: RequiredActionsPlan;
  flows: { prune: () => Promise<string[]> };
  /** The realm update's whole body and the ledgers it held (late-ledgers.ts). */
  update: { body: Item; held: string[] };
  federation: FederationSyncResult;
};

/** What a step needs done before it: a value above, or a section synced. */
export type Need = keyof Carried | 'groups' | 'client scopes' | 'documents';

export type RealmStep = {
  name: string;
  needs: readonly Need[];
  gives?: readonly Need[];
  /** Whether it runs for a realm this sync creates, and for an existing one (default: always). */
  create?: false | ((s: RealmSync) => boolean);
  /** Why a step that may run for a new realm is not carried by its create call (realm-create.ts). */
  afterCreate?: string;
  update?: false;
  /** Whether it runs at all (default: always). */
  when?: (s: RealmSync) => boolean;
  run: (s: RealmSync) => Promise<string[]>;
};

/** Whether `step` runs now. */
export function runs(step: RealmStep, s: RealmSync): boolean {
  const mode = s.created ? step.create : step.update;
  if (mode === false || (mode && !mode(s))) return false;
  return step.when?.(s) ?? true;
}

/** The value a step needs; missing means the list is out of order (the unit test says which). */
function need<K extends keyof Carried>(s: RealmSync, key: K): Carried[K] {
  const value = s[key];
  if (value === undefined) throw new Error(`realm step order: ${key} is needed before any step gave it`);
  return value as Carried[K];
}

/** Whose the realm's sections are: its record as read before this sync (a new realm: as its create recorded it). */
const sectionOwner = (s: RealmSync): SectionOwner => ({
  owner: realmOwnerOf(s.realm),
  adopt: s.spec.adoptExisting,
  recorded: need(s, 'live').attributes as Record<string, unknown> | undefined,
  path: `/${encodeURIComponent(s.name)}`,
});

const organizationsOf = (s: RealmSync) =>
  syncOrganizations(s.admin, s.ns, s.name, s.spec, sectionOwner(s), s.before('organizations'));

/** Whether the steps of these sections run for a new realm: its create call does not carry them. */
const flowsAfterCreate = (s: RealmSync) => !carriesFlowsAndActions(s.spec, s.template);
const flowsReason =
  "a declared alias one of Keycloak's own flows or configs has, an unknown required action, or Keycloak's own not read (realm-template.ts): the step checks it";

const organizationsOn = (s: RealmSync) => need(s, 'live').organizationsEnabled === true;

/** Which of the sections synced after a realm's own its create call carried (realm-create-sections.ts). */
const carried = (s: RealmSync) => carriedSteps(s.spec, s.template, s.desired.organizationsEnabled);
const organizationsReason = "the realm's create does not turn organizations on (its organizationsEnabled)";

export const realmSteps: readonly RealmStep[] = [
  {
    // One call carrying every section Keycloak's import takes (realm-create.ts), read back once.
    name: 'create the realm',
    needs: [],
    gives: ['live'],
    update: false,
    run: async (s) => {
      const target = s.federationTarget('', () => false, {});
      s.live = (await createRealm(s.admin, s.ns, s.name, {
        body: realmCreateBody({
          ...s,
          identitySecret: s.realmIdentitySecret,
          idps: compileAll(s.realm, target).idps,
          idpSecrets: target.secrets.identityProviders,
        }),
        desired: s.desired,
        rules: s.rules,
        owner: realmOwnerOf(s.realm),
        clock: s.clock,
        sections: createBodyFields(s.spec, s.keycloakVersion, s.template, s.desired.organizationsEnabled),
      })) as Item | undefined;
      return ['create realm'];
    },
  },
  {
    // Read before the realm update, which records the settings actions had before the spec declared them.
    name: 'required actions: plan',
    afterCreate: flowsReason,
    create: flowsAfterCreate,
    needs: ['live'],
    gives: ['actions'],
    run: async (s) => {
      s.actions = await planRequiredActions(s.admin, s.ns, s.name, s.spec, need(s, 'live'));
      return [];
    },
  },
  {
    // Before the realm update, so a binding can name a new flow.
    name: 'authentication flows: create and replace',
    afterCreate: flowsReason,
    create: flowsAfterCreate,
    needs: ['live'],
    gives: ['flows'],
    run: async (s) => {
      const flows = await syncFlows(s.admin, s.ns, s.name, s.spec, need(s, 'live'), s.spec.adoptExisting);
      s.flows = flows;
      return flows.writes;
    },
  },
  {
    // The organization API answers only while organizations are on: pruned before an update turns them off.
    name: 'organizations, while they are on',
    afterCreate: organizationsReason,
    create: (s) => !carried(s).organizations,
    needs: ['live'],
    when: organizationsOn,
    run: organizationsOf,
  },
  {
    // Before the realm update: the realm records a bind password's hash only once the component has the password,
    // and drops a provider from its LDAP ledger only once the provider is deleted, so a write that fails is sent
    // again by the next reconcile instead of being forgotten. Its writes are reported after the others.
    name: 'federation of an existing realm',
    needs: ['live'],
    gives: ['federation'],
    create: false,
    run: async (s) => {
      const live = need(s, 'live');
      const attrs = (live.attributes ?? {}) as Record<string, unknown>;
      s.federation = await syncFederation(
        s.admin,
        s.realm,
        s.federationTarget(String(live.id), s.before, attrs),
      );
      return [];
    },
  },
  {
    // A new realm needs it only to bind the flows made above or record the required actions' settings. The late
    // ledgers that change are held at their live values until their sections are synced.
    name: 'realm update',
    afterCreate: "binds the flows and records the required actions' settings made after the create",
    needs: ['live', 'actions', 'flows'],
    gives: ['update'],
    create: (s) =>
      Boolean(s.spec.authenticationFlows?.length || s.spec.requiredActions?.length) && flowsAfterCreate(s),
    run: async (s) => {
      const live = need(s, 'live');
      const attributes = { ...(s.desired.attributes as Item), ...need(s, 'actions').attributes };
      const { first, body, held } = planRealmUpdate({ ...s.desired, attributes }, live, s.rules, s.declared);
      s.update = { body, held };
      return updateRealm(s.admin, s.ns, s.name, first, live);
    },
  },
  {
    // Created once the update turned them on.
    name: 'organizations, after the update',
    afterCreate: organizationsReason,
    create: (s) => !carried(s).organizations,
    needs: ['live'],
    when: (s) => !organizationsOn(s),
    run: organizationsOf,
  },
  {
    // After the update: Keycloak refuses to delete a bound flow, and the update has just unbound it.
    name: 'authentication flows: prune',
    needs: ['flows', 'update'],
    // A new realm has nothing to prune.
    create: false,
    run: (s) => need(s, 'flows').prune(),
  },
  {
    // After the update that recorded their settings from before the spec.
    name: 'required actions: apply',
    afterCreate: flowsReason,
    create: flowsAfterCreate,
    needs: ['actions', 'update'],
    run: (s) => need(s, 'actions').apply(),
  },
  {
    // A new realm got them in its create call (realm-create.ts) unless a reference there is one its import cannot
    // check; then this runs for them all.
    name: 'roles, groups, default roles and messages',
    afterCreate:
      'a reference the import cannot check (a role of a client made later, a client role among the default roles): the step checks it',
    needs: ['live'],
    gives: ['groups'],
    create: (s) => !createCarriesRolesAndGroups(s.spec),
    run: async (s) => {
      const live = need(s, 'live');
      const { admin, ns, name, spec, clients } = s;
      const owner = sectionOwner(s);
      return [
        ...(await syncRoles(admin, ns, name, spec, owner, s.before('roles'), clients)),
        ...(await syncGroupTree(admin, ns, name, spec, owner, s.before('groups'), clients)),
        ...(await syncDefaultRoles(admin, ns, name, spec, live, clients)),
        ...(await syncMessages(admin, ns, name, spec, live)),
      ];
    },
  },
  {
    name: 'client scopes',
    afterCreate:
      "a declared name one of Keycloak's own scopes has, a link to a scope that does not exist, or Keycloak's own not read (realm-template.ts): the step checks it",
    create: (s) => !carriesClientScopes(s.spec, s.template),
    needs: ['live'],
    gives: ['client scopes'],
    run: (s) =>
      syncClientScopes(
        s.admin,
        s.ns,
        s.name,
        s.spec,
        sectionOwner(s),
        need(s, 'live'),
        s.before('clientScopes'),
      ),
  },
  {
    // The one-document sections, after the client scopes they may name; their ledgers from before this sync.
    name: 'client policies',
    afterCreate:
      "a profile named like one of Keycloak's global profiles, or a policy applying a profile neither declared nor global: the step reads the global ones and names it",
    create: (s) => !carried(s).clientPolicies,
    needs: ['live', 'client scopes'],
    gives: ['documents'],
    run: (s) =>
      syncClientPolicies(
        s.admin,
        s.ns,
        s.name,
        s.spec,
        need(s, 'live').attributes as Record<string, unknown>,
      ),
  },
  {
    name: 'user profile',
    afterCreate:
      "a profile naming a validator, client scope or group beyond Keycloak's own (its import answers a bare 500 to a profile it refuses)",
    needs: ['live', 'client scopes'],
    gives: ['documents'],
    create: (s) => !carriedUserProfile(s.spec, s.keycloakVersion),
    run: (s) =>
      syncUserProfile(
        s.admin,
        s.ns,
        s.name,
        s.spec,
        need(s, 'live').attributes as Record<string, unknown>,
        s.keycloakVersion,
      ),
  },
  {
    name: 'late ledgers',
    afterCreate: 'records the ledgers the realm update held',
    needs: ['update', 'documents'],
    when: (s) => s.update !== undefined,
    run: (s) => {
      const { body, held } = need(s, 'update');
      return recordRealmLedgers(s.admin, s.ns, s.name, body, held, need(s, 'live'));
    },
  },
  {
    // Last for a new realm: its LDAP mappers may name groups made above (Keycloak checks a group mapper's path),
    // and the create call already recorded its ledgers and hashes (nothing was sent to a component yet: the
    // hashes are not read from it). Identity providers the create carried are neither read nor written.
    name: 'federation of a new realm',
    afterCreate:
      "LDAP and Kerberos providers: Keycloak's import of a provider among `components` runs no provider set-up (no LDAP default mappers, no Kerberos SPNEGO step, which the step's create gets), and its deprecated `userFederationProviders` adds the defaults only to a provider listed without mappers and writes sync settings and lastSync into each provider's config; identity providers binding a flow made after the create",
    needs: ['live', 'groups'],
    gives: ['federation'],
    update: false,
    run: async (s) => {
      const live = need(s, 'live');
      s.federation = await syncFederation(s.admin, s.realm, {
        ...s.federationTarget(
          String(live.id),
          () => false,
          createdRealmEntries(live.attributes as Record<string, unknown>),
        ),
        identityProvidersCarried: carried(s).identityProviders,
      });
      return [];
    },
  },
];
