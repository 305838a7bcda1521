// The fake Keycloak's import and partial export of the sections a new realm has from Keycloak itself (see
// fake-keycloak-admin.ts), as the real one behaves (seen on 25.0 and 26.7): a realm imported with a list of flows,
// required actions or client scopes has only those (none of Keycloak's own is added; nor the role scope mapping
// of its offline_access scope), the realm's default and optional scopes are those named, and a flow binding names
// a flow by alias. The partial export lists them by alias
// and name, executions with their sub-flow's alias and config's alias.
import { randomUUID } from 'node:crypto';
import { realmBindings } from '../../../src/operator/keycloak/collections/flow-replacement.ts';
import type { Realm } from './fake-keycloak-scopes.ts';

type Obj = Record<string, any>;

/** Fills `realm` (fresh, with the fake's built-ins) with the sections `rep` lists; Keycloak's answer when it
 * would refuse them. */
export function importBuiltIns(realm: Realm, rep: Obj): { status: number; message: string } | undefined {
  if (rep.authenticatorConfig) {
    realm.authConfigs = {};
    for (const c of rep.authenticatorConfig) {
      const id = randomUUID();
      realm.authConfigs[id] = { id, alias: c.alias, config: { ...c.config } };
    }
  }
  if (rep.authenticationFlows) {
    const flows = rep.authenticationFlows.map((f: Obj) => ({
      id: randomUUID(),
      alias: f.alias,
      description: f.description ?? '',
      providerId: f.providerId,
      topLevel: f.topLevel,
      builtIn: Boolean(f.builtIn),
      executions: [] as Obj[],
    }));
    const configId = (alias: string) =>
      Object.values(realm.authConfigs as Obj).find((c: Obj) => c.alias === alias)?.id;
    for (const [i, f] of rep.authenticationFlows.entries())
      for (const e of f.authenticationExecutions ?? []) {
        const sub = e.authenticatorFlow ? flows.find((x: Obj) => x.alias === e.flowAlias) : undefined;
        if (e.authenticatorFlow && !sub) return { status: 500, message: `no flow ${e.flowAlias}` };
        flows[i].executions.push({
          id: randomUUID(),
          requirement: e.requirement,
          priority: e.priority,
          ...(sub ? { flowId: sub.id } : { authenticator: e.authenticator }),
          ...(e.authenticatorConfig ? { configId: configId(e.authenticatorConfig) } : {}),
        });
      }
    realm.flows = flows;
  }
  if (rep.requiredActions)
    realm.requiredActions = rep.requiredActions.map((a: Obj) => ({ config: {}, ...a }));
  if (rep.clientScopes) {
    realm.clientScopes = rep.clientScopes.map((s: Obj) => ({
      attributes: {},
      ...s,
      id: randomUUID(),
      protocolMappers: (s.protocolMappers ?? []).map((m: Obj) => ({ ...m, id: randomUUID() })),
    }));
    // Only the role scope mappings listed: none of Keycloak's own (offline_access's) is made.
    realm.scopeMappings = rep.scopeMappings ?? [];
  }
  return undefined;
}

/** The realm's default and optional scopes as the import sets them (by name), or undefined: Keycloak's own. */
export function importedLinks(realm: Realm, rep: Obj, kind: 'default' | 'optional') {
  const names = kind === 'default' ? rep.defaultDefaultClientScopes : rep.defaultOptionalClientScopes;
  if (!rep.clientScopes) return undefined;
  return realm.clientScopes.filter((c) => (names ?? []).includes(c.name)).map((c) => c.id);
}

/** The partial export's part for these sections (exportClients and exportGroupsAndRoles false). */
export function exportBuiltIns(realm: Realm): Obj {
  const configs = realm.authConfigs as Obj;
  const flowAlias = (id: string) => realm.flows.find((f: Obj) => f.id === id)?.alias;
  const names = (ids: string[]) => ids.map((id) => realm.clientScopes.find((c) => c.id === id)?.name);
  return {
    authenticationFlows: realm.flows.map((f: Obj) => ({
      id: f.id,
      alias: f.alias,
      description: f.description,
      providerId: f.providerId,
      topLevel: f.topLevel,
      builtIn: f.builtIn,
      authenticationExecutions: f.executions.map((e: Obj) => ({
        ...(e.flowId
          ? { authenticatorFlow: true, flowAlias: flowAlias(e.flowId) }
          : { authenticator: e.authenticator, authenticatorFlow: false }),
        ...(e.configId ? { authenticatorConfig: configs[e.configId]?.alias } : {}),
        requirement: e.requirement,
        priority: e.priority,
        userSetupAllowed: false,
      })),
    })),
    authenticatorConfig: Object.values(configs).map((c: Obj) => ({ ...c })),
    requiredActions: realm.requiredActions.map((a: Obj) => ({ ...a })),
    clientScopes: JSON.parse(JSON.stringify(realm.clientScopes)),
    scopeMappings: JSON.parse(JSON.stringify(realm.scopeMappings)),
    defaultDefaultClientScopes: names(realm.scopeLinks.default),
    defaultOptionalClientScopes: names(realm.scopeLinks.optional),
    ...Object.fromEntries([...realmBindings, 'firstBrokerLoginFlow'].map((b) => [b, realm[b]])),
  };
}
