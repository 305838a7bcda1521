// The production example as the realms bench uses it: the IdentityRealm spec every realm gets, and the same realm
// as one realm import, which the direct script posts in one call.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { IdentityRealm } from '../../generated/types/crds/identityrealm.ts';
import { compileRealm } from '../../src/operator/compile/realm-representation.ts';
import { builtInSections } from '../../src/operator/keycloak/collections/realm-create-builtins.ts';
import { userProfileComponents } from '../../src/operator/keycloak/collections/user-profile-create.ts';
import { type RealmTemplate, templateOf } from '../../src/operator/keycloak/realm-template.ts';
import type { Admin } from './direct-admin.ts';

// The repository's root, here rather than from operator-common.ts: that one loads the test environment, and the
// unit tests of this file must not.
const root = join(import.meta.dirname, '..', '..');

type GroupSpec = { name: string; parent?: string } & Record<string, unknown>;
/** Groups declared flat with parent paths, nested as Keycloak's import takes them. */
const groupTree = (groups: GroupSpec[], parent: string): Record<string, unknown>[] =>
  groups
    .filter((g) => (g.parent ?? '') === parent)
    .map(({ parent: _, ...g }) => ({ ...g, subGroups: groupTree(groups, `${parent}/${g.name}`) }));

type FlowSpec = {
  alias: string;
  description?: string;
  providerId?: string;
  topLevel?: boolean;
  executions?: {
    authenticator?: string;
    subFlow?: string;
    requirement: string;
    authenticatorConfig?: { alias: string; config?: Record<string, string> };
  }[];
};
/** Flows as Keycloak's realm import takes them: executions by priority, sub-flows by alias, configs apart. */
const importedFlows = (flows: FlowSpec[]) => ({
  authenticationFlows: flows.map((f) => ({
    alias: f.alias,
    description: f.description ?? '',
    providerId: f.providerId ?? 'basic-flow',
    topLevel: f.topLevel !== false,
    builtIn: false,
    authenticationExecutions: (f.executions ?? []).map((e, i) => ({
      ...(e.subFlow ? { flowAlias: e.subFlow, authenticatorFlow: true } : { authenticator: e.authenticator }),
      ...(e.authenticatorConfig ? { authenticatorConfig: e.authenticatorConfig.alias } : {}),
      requirement: e.requirement,
      priority: (i + 1) * 10,
      userSetupAllowed: false,
    })),
  })),
  authenticatorConfig: flows.flatMap((f) =>
    (f.executions ?? []).flatMap((e) => (e.authenticatorConfig ? [e.authenticatorConfig] : [])),
  ),
});

/** Keycloak's own flows, required actions and client scopes of a new realm, from the partial export of a fresh
 * realm made and deleted through `call` (what a team's realm export carries beside its own sections). */
export async function keycloakSections(call: Admin): Promise<RealmTemplate> {
  const realm = 'bench-keycloak-sections';
  await call('POST', '', { realm, enabled: false });
  try {
    return templateOf(
      await call('POST', `/${realm}/partial-export?exportClients=false&exportGroupsAndRoles=false`),
    );
  } finally {
    await call('DELETE', `/${realm}`);
  }
}

/** The production example's settings (everything but its server, grants and SMTP; TLS required of non-local
 * callers only), and the same realm as the direct script posts it: the compiled representation with its roles and
 * groups, in one call. Keycloak's import of a realm listing flows, required actions or client scopes keeps only
 * those, so with `own` (keycloakSections) the body lists Keycloak's own beside the declared ones, as the operator's
 * create does; without it the realm has none of Keycloak's flows and scopes (no browser flow, no `profile`). */
export function productionRealm() {
  const example = parse(readFileSync(join(root, 'examples', 'identityrealm-production.yaml'), 'utf8'));
  // The test environment serves Keycloak over plain HTTP on loopback, where the example's `sslRequired: all` refuses
  // every token request of an identity inside the realm (HTTP 403); `external` still refuses remote plain HTTP.
  example.spec.login = { ...example.spec.login, sslRequired: 'external' };
  const {
    serverRef: _s,
    clientAuthorizationGrants: _g,
    smtp: _m,
    deletionPolicy: _d,
    ...spec
  } = example.spec;
  const direct = (name: string, own?: RealmTemplate) => ({
    ...compileRealm({
      ...example,
      metadata: { name, namespace: 'bench' },
      spec: { ...example.spec, smtp: undefined },
    }),
    // Keycloak's import takes composites as the spec writes them, the default roles as the composite
    // default-roles-<realm> (Keycloak's own defaults included) and subgroups nested.
    roles: {
      realm: [
        ...spec.roles,
        {
          name: `default-roles-${name}`,
          composites: {
            // Keycloak 26.7's new realms have no uma_authorization role: naming it fails the import (HTTP 500).
            realm: ['offline_access', ...(spec.defaultRoles?.realm ?? [])],
            client: { account: ['view-profile', 'manage-account'], ...spec.defaultRoles?.client },
          },
        },
      ],
    },
    defaultRole: { name: `default-roles-${name}` },
    groups: groupTree(spec.groups, ''),
    ...importedFlows(spec.authenticationFlows ?? []),
    localizationTexts: spec.localization?.messages ?? {},
    // The user profile is a component in Keycloak's import: the whole document, the built-in attributes the spec
    // does not declare as a new realm has them.
    ...(spec.userProfile ? { components: userProfileComponents(spec.userProfile, undefined) } : {}),
    clientScopes: spec.clientScopes.map((c: Record<string, any>) => ({
      ...c,
      protocol: 'openid-connect',
      protocolMappers: c.protocolMappers.map((m: Record<string, unknown>) => ({
        ...m,
        protocol: 'openid-connect',
      })),
    })),
    ...(own ? builtInSections(spec as IdentityRealm['spec'], own).body : {}),
  });
  return { spec: spec as Record<string, unknown>, direct };
}
