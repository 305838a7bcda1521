// The sections a new realm's create call carries beside its own and Keycloak's (realm-create.ts): identity providers
// with their mappers, organizations, client profiles and policies. Keycloak's realm import takes each of them in
// the same transaction (identity providers after the flows they bind, their mappers after them, organizations
// last, the policy documents after the realm), so the realm is never live without them. Each item is sent as its
// step would send it (the client secret from its Secret in place of Keycloak's mask), and the realm's record lists
// them already (their ledgers are desired attributes), so the next resync writes nothing. What the import cannot
// check as the step does is left to the step, which names the field: a flow made after the create, a profile
// named like one of Keycloak's global profiles, a policy applying a profile that does not exist.
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import {
  compileIdentityProviderMappers,
  defaultFirstBrokerLoginFlow,
  secretMask,
} from '../../compile/realm/identity-providers.ts';
import type { RealmTemplate } from '../realm-template.ts';
import { clientPolicyItem, clientProfileItem } from './client-policies.ts';
import type { Item } from './collection.ts';
import { organizationItem } from './organizations.ts';
import { carriesFlowsAndActions } from './realm-create-builtins.ts';

type Spec = IdentityRealm['spec'];

/** Keycloak's global client profiles (25 and 26): a realm profile may not take their names. */
export const globalProfiles = new Set([
  'fapi-1-baseline',
  'fapi-1-advanced',
  'fapi-ciba',
  'fapi-2-security-profile',
  'fapi-2-message-signing',
  'fapi-2-dpop-security-profile',
  'fapi-2-dpop-message-signing',
  'oauth-2-1-for-confidential-client',
  'oauth-2-1-for-public-client',
  'saml-security-profile',
]);

/** The flows that exist while the import makes the identity providers: Keycloak's own (its first-login flow
 * whatever else is known) but those the spec replaces, and the declared ones when the body carries them. */
function flowsAtImport(spec: Spec, template: RealmTemplate | undefined): Set<string> {
  const declared = (spec.authenticationFlows ?? []).map((f) => f.alias);
  const own = [
    defaultFirstBrokerLoginFlow,
    ...(template?.authenticationFlows ?? []).map((f) => String(f.alias)),
  ];
  return new Set([
    ...own.filter((a) => !declared.includes(a)),
    ...(carriesFlowsAndActions(spec, template) ? declared : []),
  ]);
}

/** Whether the create call carries the identity providers and their mappers: every flow they bind exists then. */
export function carriesIdentityProviders(spec: Spec, template: RealmTemplate | undefined): boolean {
  const flows = flowsAtImport(spec, template);
  return (spec.identityProviders ?? []).every(
    (i) =>
      flows.has(i.firstBrokerLoginFlowAlias ?? defaultFirstBrokerLoginFlow) &&
      (!i.postBrokerLoginFlowAlias || flows.has(i.postBrokerLoginFlowAlias)),
  );
}

/** Whether the create call carries the organizations: Keycloak 26 (25 refuses the section before any write) and
 * the realm's create turning them on. */
export const carriesOrganizations = (spec: Spec, organizationsEnabled: unknown) =>
  organizationsEnabled === true || !spec.organizations?.length;

/** Whether the create call carries the client profiles and policies: no profile named like a global one, and every
 * profile a policy applies declared or global. */
export function carriesClientPolicies(spec: Spec): boolean {
  const profiles = (spec.clientPolicies?.profiles ?? []).map((p) => p.name);
  return (
    profiles.every((p) => !globalProfiles.has(p)) &&
    (spec.clientPolicies?.policies ?? []).every((p) =>
      p.profiles.every((name) => profiles.includes(name) || globalProfiles.has(name)),
    )
  );
}

/** What the step sees of a new realm's sections: which the create call carried. */
export type CarriedSteps = { identityProviders: boolean; organizations: boolean; clientPolicies: boolean };

/** Which of these sections the create call carries (a section the spec does not declare counts as carried). */
export const carriedSteps = (
  spec: Spec,
  template: RealmTemplate | undefined,
  organizationsEnabled: unknown,
): CarriedSteps => ({
  identityProviders: carriesIdentityProviders(spec, template),
  organizations: carriesOrganizations(spec, organizationsEnabled),
  clientPolicies: carriesClientPolicies(spec),
});

/** An identity provider as the create call sends it: its client secret from the Secret, as the step's resolve. */
function withSecret(idp: Item, secrets: ReadonlyMap<string, string>): Item {
  const secret = secrets.get(String(idp.alias));
  const config = idp.config as Record<string, string>;
  return secret !== undefined && config.clientSecret === secretMask
    ? { ...idp, config: { ...config, clientSecret: secret } }
    : idp;
}

/**
 * The body's fields of these sections (`body`) and their spec fields (`fields`, named when Keycloak refuses the
 * create), from the compiled identity providers (`idps`, compile/realm/identity-providers.ts) and their secrets.
 */
export function createSections(input: {
  spec: Spec;
  template?: RealmTemplate;
  organizationsEnabled: unknown;
  idps: readonly Item[];
  idpSecrets: ReadonlyMap<string, string>;
}): { body: Item; fields: string[] } {
  const { spec } = input;
  const carried = carriedSteps(spec, input.template, input.organizationsEnabled);
  const idps = carried.identityProviders ? (spec.identityProviders ?? []) : [];
  const mappers = idps.flatMap(compileIdentityProviderMappers);
  const orgs = carried.organizations ? (spec.organizations ?? []) : [];
  const policies = carried.clientPolicies ? spec.clientPolicies : undefined;
  const profiles = (policies?.profiles ?? []).map(clientProfileItem);
  const applied = (policies?.policies ?? []).map(clientPolicyItem);
  return {
    body: {
      ...(idps.length ? { identityProviders: input.idps.map((i) => withSecret(i, input.idpSecrets)) } : {}),
      ...(mappers.length ? { identityProviderMappers: mappers } : {}),
      ...(orgs.length ? { organizations: orgs.map(organizationItem) } : {}),
      ...(profiles.length ? { clientProfiles: { profiles } } : {}),
      ...(applied.length ? { clientPolicies: { policies: applied } } : {}),
    },
    fields: [
      ...(idps.length ? ['spec.identityProviders'] : []),
      ...(orgs.length ? ['spec.organizations'] : []),
      ...(profiles.length || applied.length ? ['spec.clientPolicies'] : []),
    ],
  };
}
