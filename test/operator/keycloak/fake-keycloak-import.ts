// The fake Keycloak's realm import (POST of a realm representation, see fake-keycloak-admin.ts), as Keycloak's
// RealmManager.importRealm does it for the parts the operator sends: Keycloak's own clients with their roles (those
// the import names), realm roles and then their composites, the group tree with its role mappings, the deprecated
// `defaultRoles` (realm roles added to default-roles-<realm>), message overrides and the user profile component.
// Keycloak's import is one transaction: a refusal leaves no realm. An unknown composite is a 500, a profile Keycloak
// refuses a 400 here (the real one answers a bare 500: user-profile-create.ts carries only what it cannot refuse);
// a group's unknown client role is created, as Keycloak does.
import { randomUUID } from 'node:crypto';
import { newGroup } from './fake-keycloak-groups.ts';
import type { Realm } from './fake-keycloak-scopes.ts';
import { problems } from './fake-keycloak-user-profile.ts';

type Obj = Record<string, any>;

/** Keycloak's own clients of every new realm, with their roles (the ones the operator's tests name). */
const builtInClients: Record<string, string[]> = {
  'realm-management': ['manage-users', 'view-users', 'view-clients', 'manage-clients', 'view-realm'],
  account: ['view-profile', 'manage-account'],
  broker: ['read-token'],
};

const groupClients = (groups: Obj[]): string[] =>
  groups.flatMap((g) => [...Object.keys(g.clientRoles ?? {}), ...groupClients(g.subGroups ?? [])]);

/** Fills the fresh `realm` from the representation `rep`; Keycloak's answer when it would refuse it. */
export function importInto(realm: Realm, rep: Obj): { status: number; message: string } | undefined {
  // Keycloak's own clients, made here only when the import names them, so that tests see only their own clients.
  const named = new Set<string>([
    ...(rep.roles?.realm ?? []).flatMap((r: Obj) => Object.keys(r.composites?.client ?? {})),
    ...groupClients(rep.groups ?? []),
  ]);
  for (const [clientId, names] of Object.entries(builtInClients)) {
    if (!named.has(clientId)) continue;
    const id = randomUUID();
    const roles = names.map((name) => ({
      id: randomUUID(),
      name,
      attributes: {},
      clientRole: true,
      containerId: id,
    }));
    realm.clients.push({ id, clientId, attributes: {}, protocolMappers: [], roles });
  }
  for (const role of rep.roles?.realm ?? [])
    realm.roles.push({
      attributes: {},
      ...role,
      composites: undefined,
      id: randomUUID(),
      clientRole: false,
      containerId: realm.id,
    });
  realm.compositeIds ??= {};
  const realmRole = (name: string) => realm.roles.find((r) => r.name === name);
  const clientRole = (clientId: string, name: string) =>
    realm.clients.find((c) => c.clientId === clientId)?.roles.find((r: Obj) => r.name === name);
  for (const role of rep.roles?.realm ?? []) {
    const ids: string[] = [];
    for (const name of role.composites?.realm ?? []) {
      const found = realmRole(name);
      if (!found) return { status: 500, message: `Unable to find composite realm role: ${name}` };
      ids.push(found.id);
    }
    for (const [clientId, names] of Object.entries(
      (role.composites?.client ?? {}) as Record<string, string[]>,
    ))
      for (const name of names) {
        const found = clientRole(clientId, name);
        if (!found)
          return {
            status: 500,
            message: `Unable to find client role referenced in composite of realm role: ${name}`,
          };
        ids.push(found.id);
      }
    if (ids.length) realm.compositeIds[String(realmRole(role.name)?.id)] = ids;
  }
  const addGroup = (g: Obj, parentPath: string, list: Obj[]) => {
    const group = newGroup({ ...g, subGroups: undefined }, parentPath);
    for (const [clientId, names] of Object.entries((g.clientRoles ?? {}) as Record<string, string[]>)) {
      const client = realm.clients.find((c) => c.clientId === clientId);
      if (!client)
        return { status: 500, message: `Unable to find client role mappings for client: ${clientId}` };
      for (const name of names)
        if (!clientRole(clientId, name))
          client.roles.push({
            id: randomUUID(),
            name,
            attributes: {},
            clientRole: true,
            containerId: client.id,
          });
      group.clientRoleIds[client.id] = [...names];
    }
    list.push(group);
    for (const sub of g.subGroups ?? []) addGroup(sub, group.path, group.children);
  };
  for (const g of rep.groups ?? []) addGroup(g, '', realm.groups);
  const defaults = (rep.defaultRoles ?? []).map((name: string) => realmRole(name)?.id);
  if (defaults.length) realm.compositeIds[realm.defaultRole.id].push(...defaults);
  for (const [locale, texts] of Object.entries((rep.localizationTexts ?? {}) as Obj))
    realm.messages[locale] = { ...texts };
  // The user profile: a component whose config holds the document; Keycloak checks it as on a PUT (a 400).
  for (const component of rep.components?.['org.keycloak.userprofile.UserProfileProvider'] ?? []) {
    const doc = JSON.parse(component.config['kc.user.profile.config'][0]);
    const wrong = problems(realm, doc);
    if (wrong.length) return { status: 400, message: wrong.join(', ') };
    realm.userProfile = doc;
  }
  return undefined;
}

type Answer = { status: number; body?: unknown };

/** The sections Keycloak's import makes after the realm's own, through the checks of their admin endpoints (`call`
 * runs one on the realm being imported): identity providers (a flow one binds must exist: Keycloak answers 500),
 * their mappers, organizations, then the client profiles and policies documents. */
export function importSections(
  realm: Realm,
  rep: Obj,
  call: (method: string, path: string, body: unknown) => Answer,
): { status: number; message: string } | undefined {
  const flows = new Set((realm.flows as Obj[]).map((f) => f.alias));
  for (const idp of rep.identityProviders ?? [])
    for (const alias of [idp.firstBrokerLoginFlowAlias, idp.postBrokerLoginFlowAlias])
      if (alias && !flows.has(alias))
        return { status: 500, message: `No available authentication flow with alias: ${alias}` };
  const writes: [string, string, unknown][] = [
    ...(rep.identityProviders ?? []).map((i: Obj) => ['POST', 'identity-provider/instances', i]),
    ...(rep.identityProviderMappers ?? []).map((m: Obj) => [
      'POST',
      `identity-provider/instances/${encodeURIComponent(m.identityProviderAlias)}/mappers`,
      m,
    ]),
    ...(rep.organizations ?? []).map((o: Obj) => ['POST', 'organizations', o]),
    ...(rep.clientProfiles ? [['PUT', 'client-policies/profiles', rep.clientProfiles]] : []),
    ...(rep.clientPolicies ? [['PUT', 'client-policies/policies', rep.clientPolicies]] : []),
  ];
  for (const [method, path, body] of writes) {
    const answer = call(method, path, body);
    if (answer.status >= 300) return { status: answer.status, message: JSON.stringify(answer.body ?? {}) };
  }
  return undefined;
}
