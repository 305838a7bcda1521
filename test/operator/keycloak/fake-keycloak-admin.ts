// An in-memory Keycloak admin API behind the AdminClient interface, as strict as the real one where the operator
// could be fooled: duplicate names are 409, unknown roles are 404, realm and client updates are partial (fields
// left out keep their values), client attributes with an empty value are removed, role and group attributes
// are lists, role mappings need the role's id, and the list answers carry what Keycloak's carry (a client's
// protocol mappers, a group's realm role names). Every call is recorded.
import { randomUUID } from 'node:crypto';
import { RealmforgeError } from '../../../src/core/errors.ts';
import { realmFieldDefaults } from '../../../src/operator/compile/realm-representation.ts';
import type { AdminClient, AdminResponse } from '../../../src/operator/keycloak/admin-client.ts';
import { authzOnClientWrite, authzRoute, lookupRoute, policyProviders } from './fake-keycloak-authz.ts';
import { exportBuiltIns, importBuiltIns, importedLinks } from './fake-keycloak-builtins.ts';
import {
  clientPoliciesRoute,
  conditionProviders,
  executorProviders,
  rotationGraceFor,
} from './fake-keycloak-client-policies.ts';
import { type FakeDirectory, federationRoutes } from './fake-keycloak-federation.ts';
import {
  authenticators,
  builtInFlows,
  builtInRequiredActions,
  flowRoute,
  unknownBinding,
} from './fake-keycloak-flows.ts';
import { allRoles, compositeRoute, groupRoute, roleRoute, roleView } from './fake-keycloak-groups.ts';
import { importInto, importSections } from './fake-keycloak-import.ts';
import {
  builtInScopes,
  clientScopeRoute,
  copy,
  organizationRoute,
  type Realm,
  reply,
  scopeLinkRoute,
} from './fake-keycloak-scopes.ts';
import { userProfileRoute } from './fake-keycloak-user-profile.ts';

type Obj = Record<string, any>;

/** A realm as a fresh Keycloak has it (the fields the operator manages, at Keycloak's defaults). */
function freshRealm(rep: Obj): Realm {
  // Keycloak's defaults table (checked against the real Keycloak 25 and 26 by test/e2e/realm-sections.test.ts);
  // like Keycloak, a new realm's answer leaves out the fields that are unset (seen on 26.7.3).
  const unset = new Set([
    'realm',
    'displayName',
    'loginTheme',
    'accountTheme',
    'adminTheme',
    'emailTheme',
    'passwordPolicy',
    'supportedLocales',
    'defaultLocale',
    'eventsExpiration',
  ]);
  const defaults = Object.fromEntries(Object.entries(realmFieldDefaults).filter(([k]) => !unset.has(k)));
  const id = randomUUID();
  const role = (name: string) => ({
    id: randomUUID(),
    name,
    attributes: {},
    clientRole: false,
    containerId: id,
  });
  const [offline, defaultRole] = [role('offline_access'), role(`default-roles-${rep.realm}`)];
  return {
    ...copy(defaults),
    attributes: {},
    smtpServer: {},
    ...rep,
    id,
    roles: [offline, defaultRole],
    // Keycloak's default roles: a composite every new user gets (offline_access among Keycloak's own).
    defaultRole: { id: defaultRole.id, name: defaultRole.name, composite: true, clientRole: false },
    compositeIds: { [defaultRole.id]: [offline.id] },
    groups: [],
    flows: builtInFlows(),
    requiredActions: builtInRequiredActions(),
    messages: {},
    authConfigs: {},
    clients: [],
    users: [],
    clientScopes: [...builtInScopes.default, ...builtInScopes.optional].map((name) => ({
      id: randomUUID(),
      name,
      protocol: name === 'role_list' ? 'saml' : 'openid-connect',
      attributes: { 'include.in.token.scope': 'true' },
      protocolMappers: [],
    })),
    scopeLinks: { default: [], optional: [] },
    // The role offline_access's scope brings (a realm role scope mapping of the scope).
    scopeMappings: [{ clientScope: 'offline_access', roles: ['offline_access'] }],
    organizations: [],
  };
}

/** Keycloak refuses a policy string naming an unknown policy provider; the first unknown id, if any. */
const policyIds = new Set(
  'length maxLength digits upperCase lowerCase specialChars notUsername notEmail passwordHistory forceExpiredPasswordChange regexPattern hashAlgorithm hashIterations passwordBlacklist'.split(
    ' ',
  ),
);
const unknownPolicy = (text: string) =>
  String(text)
    .split(' and ')
    .map((p) => p.trim().replace(/\(.*$/s, ''))
    .find((id) => id && !policyIds.has(id));

const dropEmpty = (attrs: Obj = {}) => Object.fromEntries(Object.entries(attrs).filter(([, v]) => v !== ''));
const smtpMask = '**********';
/** The base64 body of the fake realm's RSA signing certificate (not a real certificate: nothing parses it). */
export const fakeRealmCertificate = `MIICmzCCAYMCBgGT${'A'.repeat(80)}`;

/** The part of Keycloak 26's server info the operator reads (a few of its many mapper types and providers). */
export const serverInfo = {
  systemInfo: { version: '26.7.3' },
  protocolMapperTypes: {
    'openid-connect': [
      'oidc-audience-mapper',
      'oidc-usermodel-attribute-mapper',
      'oidc-hardcoded-claim-mapper',
      'oidc-group-membership-mapper',
    ].map((id) => ({ id })),
    saml: ['saml-user-attribute-mapper', 'saml-role-list-mapper'].map((id) => ({ id })),
  },
  providers: {
    authenticator: { providers: Object.fromEntries(authenticators.authenticator?.map((a) => [a, {}]) ?? []) },
    'form-action': {
      providers: Object.fromEntries(authenticators['form-action']?.map((a) => [a, {}]) ?? []),
    },
    'client-authenticator': {
      providers: { 'client-secret': {}, 'client-jwt': {}, 'client-secret-jwt': {}, 'client-x509': {} },
    },
    policy: { providers: Object.fromEntries(policyProviders.map((id) => [id, {}])) },
    'client-policy-executor': { providers: Object.fromEntries(executorProviders.map((id) => [id, {}])) },
    'client-policy-condition': { providers: Object.fromEntries(conditionProviders.map((id) => [id, {}])) },
  },
  // Keycloak's defaults: client-secret-rotation is a preview feature, off unless the server enables it.
  features: [
    { name: 'CLIENT_SECRET_ROTATION', enabled: false },
    { name: 'ORGANIZATION', enabled: true },
    { name: 'AUTHORIZATION', enabled: true },
  ],
};

/** The fake: its admin client, its realms (to inspect or change "by hand"), and the calls it saw. */
/** The user id the fake records for the operator's writes; tests edit by hand in namespace `t` or `test`. */
export const fakeOperatorUserId = 'realmforge-operator-user';
const handNamespaces = ['t', 'test'];

export function fakeKeycloakAdmin() {
  const realms = new Map<string, Realm>();
  const calls: string[] = [];
  const world = { directories: [] as FakeDirectory[], fetchable: new Set<string>() };
  const federation = federationRoutes(world);
  const enabled = new Set<string>();
  const clientOf = (r: Realm, id: string) => r.clients.find((c) => c.id === id);
  const realmRole = (r: Realm, name: string) => r.roles.find((x) => x.name === name);

  function route(method: string, path: string, body: any): AdminResponse<unknown> {
    if (path === '../serverinfo')
      return reply(200, {
        ...serverInfo,
        features: serverInfo.features.map((f) => ({ ...f, enabled: f.enabled || enabled.has(f.name) })),
      });
    const [rawPath, query = ''] = path.split('?');
    const parts = (rawPath ?? '').split('/').filter(Boolean).map(decodeURIComponent);
    if (!parts.length && method === 'GET')
      return reply(
        200,
        [...realms.keys()].map((realm) => ({ realm })),
      );
    if (!parts.length && method === 'POST') {
      if (realms.has(body.realm)) return reply(409, { errorMessage: 'Conflict detected' });
      const unknown = body.passwordPolicy ? unknownPolicy(body.passwordPolicy) : undefined;
      if (unknown) return reply(400, { error: `Invalid config for ${unknown}: Password policy not found` });
      const {
        roles: _r,
        groups: _g,
        defaultRoles: _d,
        localizationTexts: _l,
        components: _c,
        authenticationFlows: _f,
        authenticatorConfig: _ac,
        requiredActions: _ra,
        clientScopes: _cs,
        defaultDefaultClientScopes: _dd,
        defaultOptionalClientScopes: _do,
        scopeMappings: _sm,
        identityProviders: _ip,
        identityProviderMappers: _ipm,
        organizations: _o,
        clientProfiles: _cp,
        clientPolicies: _cpo,
        ...fields
      } = body;
      const realm = freshRealm(fields);
      const refused = importInto(realm, body) ?? importBuiltIns(realm, body);
      if (refused) return reply(refused.status, { errorMessage: refused.message });
      const unbound = unknownBinding(realm, fields);
      if (unbound) return reply(500, { errorMessage: `${unbound}: no flow ${fields[unbound]}` });
      for (const kind of ['default', 'optional'] as const)
        realm.scopeLinks[kind] =
          importedLinks(realm, body, kind) ??
          realm.clientScopes.filter((c) => builtInScopes[kind].includes(c.name)).map((c) => c.id);
      // The sections made through their endpoints' checks; a refusal leaves no realm (one transaction).
      realms.set(body.realm, realm);
      const realmPath = `/${encodeURIComponent(body.realm)}`;
      const late = importSections(realm, body, (m, p, b) => route(m, `${realmPath}/${p}`, copy(b)));
      if (late) {
        realms.delete(body.realm);
        return reply(late.status, { errorMessage: late.message });
      }
      return reply(201);
    }
    const realm = realms.get(parts[0] ?? '');
    if (!realm) return reply(404, { error: 'Realm not found.' });
    const [, col, id, sub, ...rest] = parts;
    if (!col) {
      // Keycloak never echoes the SMTP password: it answers a mask, and keeps the stored one when the mask comes back.
      if (method === 'GET')
        return reply(200, {
          ...copy(realm),
          ...(realm.smtpServer?.password ? { smtpServer: { ...realm.smtpServer, password: smtpMask } } : {}),
          roles: undefined,
          groups: undefined,
          compositeIds: undefined,
          flows: undefined,
          authConfigs: undefined,
          requiredActions: undefined,
          messages: undefined,
          clients: undefined,
          users: undefined,
          clientScopes: undefined,
          scopeLinks: undefined,
          scopeMappings: undefined,
          organizations: undefined,
          clientProfiles: undefined,
          clientPolicies: undefined,
          userProfile: undefined,
        });
      if (method === 'DELETE') return reply(204, realms.delete(parts[0] ?? ''));
      const { attributes, smtpServer, browserSecurityHeaders, passwordPolicy, ...fields } = body;
      const unbound = unknownBinding(realm, fields);
      if (unbound) return reply(400, { error: `${unbound}: no flow ${fields[unbound]}` });
      if (passwordPolicy !== undefined) {
        const unknown = unknownPolicy(passwordPolicy);
        if (unknown) return reply(400, { error: `Invalid config for ${unknown}: Password policy not found` });
        realm.passwordPolicy = passwordPolicy;
      }
      // Keycloak applies the OTP policy only with its type, and resets the device-grant settings left out.
      if (fields.otpPolicyType === undefined)
        for (const k of Object.keys(fields)) if (k.startsWith('otpPolicy')) delete fields[k];
      fields.oauth2DeviceCodeLifespan ??= 600;
      fields.oauth2DevicePollingInterval ??= 5;
      Object.assign(realm, fields);
      // Keycloak sets the headers given, one by one (they are realm attributes), and keeps the others.
      if (browserSecurityHeaders)
        realm.browserSecurityHeaders = { ...realm.browserSecurityHeaders, ...browserSecurityHeaders };
      if (attributes) realm.attributes = { ...realm.attributes, ...attributes };
      if (smtpServer)
        realm.smtpServer =
          smtpServer.password === smtpMask
            ? { ...smtpServer, password: realm.smtpServer?.password }
            : smtpServer;
      return reply(204);
    }
    // The partial export of the sections a new realm has from Keycloak (of a realm its caller created).
    if (col === 'partial-export' && method === 'POST')
      return reply(200, { realm: realm.realm, ...exportBuiltIns(realm) });
    if (col === 'organizations') return organizationRoute(realm, method, id, body);
    if (col === 'client-policies') return clientPoliciesRoute(realm, method, id, query, body);
    if (col === 'users' && id === 'profile' && !sub) return userProfileRoute(realm, method, body);
    if (col === 'client-scopes') return clientScopeRoute(realm, method, id, sub, rest, body, parts[0] ?? '');
    if (col === 'default-default-client-scopes' || col === 'default-optional-client-scopes')
      return scopeLinkRoute(
        realm,
        col === 'default-default-client-scopes' ? 'default' : 'optional',
        method,
        id,
      );
    if (col === 'roles' && !id) {
      if (method === 'GET')
        return reply(
          200,
          realm.roles.map((r) => roleView(realm, r)),
        );
      if (realmRole(realm, body.name))
        return reply(409, { errorMessage: `Role with name ${body.name} already exists` });
      realm.roles.push({
        attributes: {},
        ...body,
        id: randomUUID(),
        clientRole: false,
        containerId: realm.id,
      });
      return reply(201);
    }
    if (col === 'roles' && id && !sub) return roleRoute(realm, realmRole(realm, id), method, body);
    if (col === 'roles-by-id') {
      const role = allRoles(realm).find((r) => r.id === id);
      if (role && sub === 'composites' && !rest.length) return compositeRoute(realm, role.id, method, body);
      return roleRoute(realm, role, method, body);
    }
    if (col === 'authentication') return flowRoute(realm, parts, method, body);
    // Realm message overrides: a map per locale; POST merges a map in, DELETE removes one key (404 when absent).
    if (col === 'localization' && id) {
      realm.messages[id] ??= {};
      const texts = realm.messages[id];
      if (method === 'GET' && !sub) return reply(200, copy(texts));
      if (method === 'POST' && !sub) {
        Object.assign(texts, body);
        return reply(204);
      }
      if (method === 'DELETE' && sub && sub in texts) {
        delete texts[sub];
        return reply(204);
      }
      return reply(404, { error: 'Key does not exist' });
    }
    if (col === 'groups')
      return groupRoute(realm, parts[0] ?? '', parts, query, method, body, (roles, holder, f, m, b) =>
        mappings({ roles }, holder, f, m, b),
      );
    // The realm's keys (GET only, as the admin API): an HMAC key and the RSA signing key with its certificate.
    if (col === 'keys' && !id && method === 'GET')
      return reply(200, {
        active: { RS256: 'rsa-kid' },
        keys: [
          {
            kid: 'hs-kid',
            algorithm: 'HS512',
            type: 'OCT',
            use: 'SIG',
            status: 'ACTIVE',
            providerPriority: 100,
          },
          {
            kid: 'rsa-kid',
            algorithm: 'RS256',
            type: 'RSA',
            use: 'SIG',
            status: 'ACTIVE',
            providerPriority: 100,
            publicKey: 'MIIBIjANBgkq',
            certificate: fakeRealmCertificate,
          },
        ],
      });
    if (col === 'clients' && !id) {
      if (method === 'GET') {
        const wanted = new URLSearchParams(query).get('clientId');
        return reply(
          200,
          copy(realm.clients.filter((c) => !wanted || c.clientId === wanted)).map(
            ({ roles: _, authz: _a, ...c }: Obj) => c,
          ),
        );
      }
      if (realm.clients.some((c) => c.clientId === body.clientId))
        return reply(409, { errorMessage: `Client ${body.clientId} already exists` });
      const cid = randomUUID();
      const mappers = (body.protocolMappers ?? []).map((m: Obj) => ({ ...m, id: randomUUID() }));
      const client = {
        secret: randomUUID(),
        ...body,
        attributes: dropEmpty(body.attributes),
        protocolMappers: mappers,
        id: cid,
        roles: [],
      };
      realm.clients.push(client);
      authzOnClientWrite(client);
      if (body.serviceAccountsEnabled)
        realm.users.push({
          id: randomUUID(),
          username: `service-account-${body.clientId}`,
          client: cid,
          realmRoles: [`default-roles-${parts[0]}`],
          clientRoles: {},
        });
      return reply(201, undefined, `http://kc/admin/realms/${parts[0]}/clients/${cid}`);
    }
    const client = clientOf(realm, id ?? '');
    if (col === 'clients' && client) {
      if (!sub && method === 'GET') {
        const { roles: _, authz: _a, ...rep } = copy(client) as Obj;
        return reply(200, rep);
      }
      if (!sub) {
        if (method === 'DELETE') realm.clients = realm.clients.filter((c) => c !== client);
        else {
          const { attributes, protocolMappers: _, ...fields } = body;
          Object.assign(client, fields);
          client.attributes = dropEmpty({ ...client.attributes, ...attributes });
          authzOnClientWrite(client);
          // Keycloak drops a rotated secret on an admin update unless a secret-rotation policy applies.
          if (rotationGraceFor(realm, client) === undefined)
            for (const k of Object.keys(client.attributes))
              if (k.startsWith('client.secret.rotated')) delete client.attributes[k];
        }
        return reply(204);
      }
      if (sub === 'authz' && rest[0] === 'resource-server')
        return authzRoute(realm, client, method, rest.slice(1), body);
      if (sub === 'client-secret' && method === 'GET')
        return reply(200, { type: 'secret', value: client.secret });
      if (sub === 'client-secret' && method === 'POST') {
        // Regenerated; under a secret-rotation policy the previous secret is kept for its grace.
        const grace = rotationGraceFor(realm, client);
        const now = Math.floor(Date.now() / 1000);
        if (grace)
          Object.assign(client.attributes, {
            'client.secret.rotated': client.secret,
            'client.secret.rotated.creation.time': String(now),
            'client.secret.rotated.expiration.time': String(now + grace),
          });
        client.secret = randomUUID();
        return reply(200, { type: 'secret', value: client.secret });
      }
      if (sub === 'roles' && !rest.length) {
        if (method === 'GET')
          return reply(
            200,
            client.roles.map((r: Obj) => roleView(realm, r)),
          );
        if (client.roles.some((r: Obj) => r.name === body.name))
          return reply(409, { errorMessage: 'Role already exists' });
        client.roles.push({
          attributes: {},
          ...body,
          id: randomUUID(),
          clientRole: true,
          containerId: client.id,
        });
        return reply(201);
      }
      if (sub === 'roles' && rest.length === 1)
        return roleRoute(
          realm,
          client.roles.find((r: Obj) => r.name === rest[0]),
          method,
          body,
        );
      if (sub === 'protocol-mappers') {
        if (method === 'GET') return reply(200, copy(client.protocolMappers));
        if (method === 'POST') {
          if (client.protocolMappers.some((m: Obj) => m.name === body.name))
            return reply(409, { errorMessage: 'Protocol mapper exists with same name' });
          client.protocolMappers.push({ ...body, id: randomUUID() });
          return reply(201);
        }
        const mapper = client.protocolMappers.find((m: Obj) => m.id === rest[1]);
        if (!mapper) return reply(404);
        if (method === 'DELETE')
          client.protocolMappers = client.protocolMappers.filter((m: Obj) => m !== mapper);
        else Object.assign(mapper, { ...body, id: mapper.id });
        return reply(204);
      }
      if (sub === 'service-account-user') {
        const user = realm.users.find((u) => u.client === client.id);
        return user
          ? reply(200, { id: user.id, username: user.username })
          : reply(400, { error: 'Service account not enabled for the client' });
      }
    }
    if ((col === 'users' && !id && method === 'GET') || col === 'group-by-path')
      return lookupRoute(realm, col, parts.slice(2), query);
    if (col === 'users' && sub === 'role-mappings') {
      const user = realm.users.find((u) => u.id === id);
      if (!user) return reply(404);
      if (!rest.length) {
        const clientMappings = Object.fromEntries(
          Object.entries(user.clientRoles as Record<string, string[]>)
            .filter(([, names]) => names.length)
            .map(([cid, names]) => {
              const c = clientOf(realm, cid) as Obj;
              return [
                c.clientId,
                {
                  id: cid,
                  client: c.clientId,
                  mappings: names.map((n) => c.roles.find((r: Obj) => r.name === n)),
                },
              ];
            }),
        );
        return reply(200, {
          realmMappings: user.realmRoles.map((n: string) => realmRole(realm, n)),
          ...(Object.keys(clientMappings).length ? { clientMappings } : {}),
        });
      }
      if (rest[0] === 'realm') return mappings(realm, user, 'realmRoles', method, body);
      const target = clientOf(realm, rest[1] ?? '');
      if (!target) return reply(404);
      user.clientRoles[target.id] ??= [];
      return mappings({ ...realm, roles: target.roles }, user.clientRoles, target.id, method, body);
    }
    const federated = federation.route(realm, parts, method, query, body);
    if (federated) return federated;
    return reply(404, { error: `no route for ${method} ${path}` });
  }

  /** A role-mapping endpoint on holder[field] (role names): GET lists roles, POST/DELETE take roles with ids. */
  function mappings(realm: { roles: Obj[] }, holder: Obj, field: string, method: string, body: any) {
    const names: string[] = holder[field] ?? [];
    if (method === 'GET')
      return reply(
        200,
        names.map((n) => copy(realm.roles.find((r) => r.name === n))),
      );
    for (const role of body as Obj[]) {
      const known = realm.roles.find((r) => r.id === role.id && r.name === role.name);
      if (!known) return reply(404, { error: `Role not found: ${role.name}` });
    }
    const given = (body as Obj[]).map((r) => r.name as string);
    holder[field] =
      method === 'POST' ? [...new Set([...names, ...given])] : names.filter((n) => !given.includes(n));
    return reply(204);
  }

  const state = { down: false };
  const events = new Map<string, Obj[]>();
  const faults: string[] = [];
  const admin: AdminClient = {
    baseUrl: 'http://kc',
    async call<T>(namespace: string, method: string, path: string, body?: unknown) {
      if (state.down)
        throw new RealmforgeError('transient', 'Keycloak is unreachable (connect ECONNREFUSED)');
      calls.push(`${method} ${path}`);
      const fault = faults.findIndex((f) => `${method} ${path}`.startsWith(f));
      if (fault >= 0) {
        faults.splice(fault, 1);
        throw new RealmforgeError('internal', `Keycloak ${method} ${path}: HTTP 500 Internal Server Error`);
      }
      const [, realmOf, col] = path.split('?')[0]?.split('/') ?? [];
      if (method === 'GET' && col === 'admin-events') {
        const max = Number(new URL(path, 'http://kc').searchParams.get('max') ?? 100);
        return { status: 200, body: (events.get(realmOf ?? '') ?? []).slice(0, max) as T };
      }
      const res = route(method, path, copy(body)) as AdminResponse<T>;
      // Keycloak records an admin event for each write to a realm with admin events on, newest first; none for
      // client policies and profiles or the localization texts (their resources send none).
      if (
        method !== 'GET' &&
        res.status < 300 &&
        col !== 'client-policies' &&
        col !== 'localization' &&
        realms.get(realmOf ?? '')?.adminEventsEnabled
      )
        events.set(realmOf ?? '', [
          {
            id: `event-${calls.length}`,
            time: calls.length,
            operationType: { POST: 'CREATE', PUT: 'UPDATE' }[method] ?? method,
            resourcePath: path,
            authDetails: { userId: handNamespaces.includes(namespace) ? 'a-person' : fakeOperatorUserId },
          },
          ...(events.get(realmOf ?? '') ?? []),
        ]);
      // As the real admin client: an answer other than success, 404 or 409 is thrown (400 is the spec's fault).
      if (res.status < 400 || res.status === 404 || res.status === 409) return res;
      const reason = (res.body as { error?: string; errorMessage?: string } | undefined) ?? {};
      throw new RealmforgeError(
        res.status === 400 ? 'validation' : 'internal',
        `Keycloak ${method} ${path}: HTTP ${res.status} ${reason.errorMessage ?? reason.error ?? ''}`,
      );
    },
  };
  return {
    admin,
    realms,
    calls,
    /** The LDAP directories and discovery URLs the fake Keycloak can reach. */
    world,
    /** A realm's identity providers, components and federated users. */
    federationOf: (name: string) => federation.stateOf(realms.get(name) as object),
    /** Calls other than reads. */
    writes: () => calls.filter((c) => !c.startsWith('GET ')),
    /** While set, every call fails as an unreachable Keycloak's does. */
    setDown: (down: boolean) => {
      state.down = down;
    },
    /** The next call starting with `call` ("PUT /corp/components/") fails with a 500, changing nothing. */
    failNext: (call: string) => faults.push(call),
    /** Enables a feature (its server-info name, e.g. CLIENT_SECRET_ROTATION), as a server started with it. */
    enableFeature: (name: string) => enabled.add(name),
    /** Forgets the calls seen so far. */
    reset: () => {
      calls.length = 0;
    },
  };
}

/** An admin client over the fake `kc` that keeps each body sent as `method path`, in `bodies`. */
export function bodiesOf(kc: ReturnType<typeof fakeKeycloakAdmin>, method: string, path: string) {
  const bodies: Record<string, any>[] = [];
  const admin = {
    ...kc.admin,
    call: ((ns, m, p, body, options) => {
      if (m === method && p === path) bodies.push(body as Record<string, any>);
      return kc.admin.call(ns, m, p, body, options);
    }) as typeof kc.admin.call,
  };
  return { admin, bodies };
}
