// Clients as IdentityClients: the inverse of compile/client-representation.ts. Keycloak's own clients (account,
// broker, realm-management, ...) stay the realm's (noted when changed); every other client becomes one
// IdentityClient in the namespace the user names. Typed attributes become typed fields, the rest spec.attributes,
// except those a new client has anyway (newClient).
import type { IdentityClient } from '../../../../generated/types/crds/identityclient.ts';
import { importClientAttributes } from './client-attributes.ts';
import { importAuthorization } from './client-authorization.ts';
import { importMapper } from './client-scopes.ts';
import {
  compact,
  type ImportContext,
  type Json,
  listAt,
  noteRest,
  objectAt,
  same,
  strings,
} from './context.ts';
import { noteChanged } from './keycloak-defaults.ts';

type Spec = IdentityClient['spec'];

/** What a client created through the admin API has without being told (left out of the YAML). */
export const newClient: Json = {
  surrogateAuthRequired: false,
  alwaysDisplayInConsole: false,
  notBefore: 0,
  nodeReRegistrationTimeout: -1,
  frontchannelLogout: true,
  authenticationFlowBindingOverrides: {},
  access: undefined,
};

/** Fields the inverse reads (the rest, unless a new client has it, is noted). */
const used = [
  'clientId',
  'name',
  'description',
  'enabled',
  'protocol',
  'publicClient',
  'bearerOnly',
  'clientAuthenticatorType',
  'secret',
  'rootUrl',
  'baseUrl',
  'redirectUris',
  'webOrigins',
  'standardFlowEnabled',
  'directAccessGrantsEnabled',
  'implicitFlowEnabled',
  'serviceAccountsEnabled',
  'consentRequired',
  'fullScopeAllowed',
  'frontchannelLogout',
  'attributes',
  'authenticationFlowBindingOverrides',
  'defaultClientScopes',
  'optionalClientScopes',
  'protocolMappers',
  'authorizationServicesEnabled',
  'authorizationSettings',
];

/** A Kubernetes object name for a client id (lower case, '-' for anything else). */
export const objectName = (clientId: string) =>
  clientId
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63) || 'client';

export type ClientPlacement = { namespace: string; realmRef: { name: string; namespace: string } };

export function importClients(exp: Json, ctx: ImportContext, where: ClientPlacement): IdentityClient[] {
  const builtIn = new Map(listAt(ctx.defaults.clients).map((c) => [String(c.clientId), c]));
  const flowAliases = new Map(listAt(exp.authenticationFlows).map((f) => [String(f.id), String(f.alias)]));
  const clientRoles = objectAt(objectAt(exp.roles).client);
  const serviceAccounts = new Map(
    listAt(exp.users)
      .filter((u) => u.serviceAccountClientId)
      .map((u) => [String(u.serviceAccountClientId), u]),
  );
  const names = new Set<string>();
  const out: IdentityClient[] = [];
  for (const client of listAt(exp.clients)) {
    const clientId = String(client.clientId);
    const path = `clients[${clientId}]`;
    const known = builtIn.get(clientId);
    if (known) {
      noteChanged(ctx, path, { ...client, secret: undefined }, known);
      noteChanged(
        ctx,
        `roles.client[${clientId}]`,
        clientRoles[clientId] ?? [],
        objectAt(objectAt(ctx.defaults.roles).client)[clientId] ?? [],
      );
      continue;
    }
    noteRest(ctx, path, client, used, newClient, 'a client setting the CRD has no field for');
    let name = objectName(clientId);
    for (let i = 2; names.has(name); i++) name = `${objectName(clientId).slice(0, 60)}-${i}`;
    names.add(name);
    const spec = importClientSpec(client, ctx, path, exp, flowAliases);
    // Keycloak's own role of a client with authorization services (its service account holds it).
    const own = (r: Json) =>
      client.authorizationServicesEnabled === true && r.name === 'uma_protection' && !r.composite;
    const roles = listAt(clientRoles[clientId])
      .filter((r) => !own(r))
      .map((r) => {
        if (r.composite)
          ctx.note(
            `roles.client[${clientId}][${String(r.name)}].composites`,
            "a client role's composites have no field",
          );
        if (Object.keys(objectAt(r.attributes)).length)
          ctx.note(
            `roles.client[${clientId}][${String(r.name)}].attributes`,
            "a client role's attributes have no field",
          );
        return compact({ name: String(r.name), description: r.description || undefined });
      });
    const account = serviceAccounts.get(clientId);
    const serviceAccount = spec.serviceAccount && account ? serviceAccountRoles(account, ctx, client) : {};
    out.push({
      apiVersion: 'realmforge.dev/v1',
      kind: 'IdentityClient',
      metadata: { name, namespace: where.namespace },
      spec: compact({
        realmRef: where.realmRef,
        clientId: clientId === name ? undefined : clientId,
        ...spec,
        serviceAccount: spec.serviceAccount ? { ...spec.serviceAccount, ...serviceAccount } : undefined,
        roles,
        // The client exists in Keycloak already: the operator takes it over as the realm's resource does.
        adoptExisting: true,
      }) as Spec,
    });
    // Kept even when empty (compact drops them): no scopes at all, or authorization at its defaults, is a choice.
    const last = (out.at(-1) as IdentityClient).spec as unknown as Json;
    for (const field of ['defaultClientScopes', 'optionalClientScopes', 'authorization'] as const)
      if (spec[field]) last[field] = spec[field];
  }
  return out;
}

/** The roles a client's service account holds beyond those Keycloak gives it: the realm's default roles, and
 * uma_protection of its own client when it has authorization services. */
function serviceAccountRoles(user: Json, ctx: ImportContext, client: Json): Json {
  const defaultRole = `default-roles-${ctx.realm}`.toLowerCase();
  const keycloaks = (owner: string, role: string) =>
    owner === client.clientId && role === 'uma_protection' && client.authorizationServicesEnabled === true;
  const clientRoles = Object.entries(objectAt(user.clientRoles))
    .map(([owner, roles]) => ({ client: owner, roles: strings(roles).filter((r) => !keycloaks(owner, r)) }))
    .filter((entry) => entry.roles.length);
  return compact({ realmRoles: strings(user.realmRoles).filter((r) => r !== defaultRole), clientRoles });
}

function importClientSpec(
  c: Json,
  ctx: ImportContext,
  path: string,
  exp: Json,
  flowAliases: Map<string, string>,
): Partial<Spec> {
  const saml = c.protocol === 'saml';
  const type = saml ? undefined : c.bearerOnly ? 'bearer-only' : c.publicClient ? 'public' : undefined;
  const confidential = !saml && type === undefined;
  const method = String(c.clientAuthenticatorType ?? 'client-secret');
  if (type === 'bearer-only' && strings(c.redirectUris).length)
    ctx.note(
      `${path}.redirectUris`,
      'a bearer-only client has no login flow: its redirect URIs have no field',
    );
  if (confidential && typeof c.secret === 'string' && c.secret !== '' && !c.secret.startsWith('**'))
    ctx.note(
      `${path}.secret`,
      "the client's secret: the operator writes a new one to the credentials Secret",
    );
  const overrides = objectAt(c.authenticationFlowBindingOverrides);
  const flow = (id: unknown) => (id ? (flowAliases.get(String(id)) ?? String(id)) : undefined);
  // A new client gets the realm's default and optional scopes of its own protocol.
  const protocols = new Map(
    [...listAt(ctx.defaults.clientScopes), ...listAt(exp.clientScopes)].map((s) => [
      String(s.name),
      s.protocol,
    ]),
  );
  const protocol = saml ? 'saml' : 'openid-connect';
  const realmScopes = (realmField: string) =>
    strings(exp[realmField] ?? ctx.defaults[realmField]).filter(
      (n) => (protocols.get(n) ?? protocol) === protocol,
    );
  const scopes = (field: string, realmField: string) =>
    field in c && !same(c[field], realmScopes(realmField)) ? strings(c[field]) : undefined;
  const { attributes, typed } = importClientAttributes(c, ctx, saml);
  const scopeLists = Object.fromEntries(
    [
      ['defaultClientScopes', scopes('defaultClientScopes', 'defaultDefaultClientScopes')],
      ['optionalClientScopes', scopes('optionalClientScopes', 'defaultOptionalClientScopes')],
    ].filter(([, v]) => v !== undefined),
  );
  const spec = compact({
    name: c.name || undefined,
    description: c.description || undefined,
    enabled: c.enabled === false ? false : undefined,
    protocol: saml ? 'saml' : undefined,
    type,
    rootUrl: c.rootUrl || undefined,
    baseUrl: c.baseUrl || undefined,
    redirectUris: type === 'bearer-only' ? undefined : strings(c.redirectUris),
    webOrigins: strings(c.webOrigins),
    // The CRD defaults standardFlow to true, which a bearer-only client must say is off.
    standardFlow: c.standardFlowEnabled === false || type === 'bearer-only' ? false : undefined,
    directAccessGrants:
      !saml && c.directAccessGrantsEnabled === true && type !== 'bearer-only' ? true : undefined,
    implicitFlow: !saml && c.implicitFlowEnabled === true && type !== 'bearer-only' ? true : undefined,
    serviceAccount: confidential && c.serviceAccountsEnabled === true ? { enabled: true } : undefined,
    fullScopeAllowed: c.fullScopeAllowed === false ? false : undefined,
    authenticationFlowOverrides: compact({
      browser: flow(overrides.browser),
      directGrant: flow(overrides.direct_grant),
    }),
    protocolMappers: listAt(c.protocolMappers).map((m) => importMapper(m, saml ? 'saml' : 'openid-connect')),
    ...typed,
    consent: compact({
      ...(typed.consent as Json | undefined),
      required: c.consentRequired === true ? true : undefined,
    }),
    frontchannelLogout: compact({
      ...(typed.frontchannelLogout as Json | undefined),
      enabled: c.frontchannelLogout === newClient.frontchannelLogout ? undefined : c.frontchannelLogout,
    }),
    authentication: compact({
      ...(typed.authentication as Json | undefined),
      method: confidential && method !== 'client-secret' ? method : undefined,
    }),
    attributes,
  });
  // Authorization on with every setting at Keycloak's default is an empty object, which compact would drop.
  const authorization =
    c.authorizationServicesEnabled === true
      ? { authorization: importAuthorization(c.authorizationSettings, ctx, path) }
      : {};
  return { ...spec, ...scopeLists, ...authorization } as Partial<Spec>;
}
