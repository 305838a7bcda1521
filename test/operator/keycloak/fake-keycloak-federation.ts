// The federation endpoints of the fake Keycloak admin API, as strict as the real ones where the operator could be
// fooled: identity providers and components answer Keycloak's mask for secrets and keep the stored secret when
// the mask comes back; duplicate aliases and names are 409; an LDAP provider gets Keycloak's default mappers
// (without an owner) when created; deleting a provider deletes its mappers and the users imported from it; the
// LDAP test and sync talk to a directory the test describes (a URL, a bind DN and password, its users).
import { randomUUID } from 'node:crypto';
import type { AdminResponse } from '../../../src/operator/keycloak/admin-client.ts';

type Obj = Record<string, any>;

/** A directory the fake's LDAP providers can reach. */
export type FakeDirectory = { url: string; bindDn: string; password: string; users: string[] };
/** Federation state of one realm. */
export type FederationState = {
  identityProviders: Obj[];
  idpMappers: Obj[];
  components: Obj[];
  users: Obj[];
};

const mask = '**********';
const reply = (status: number, body?: unknown): AdminResponse<unknown> => ({ status, body });
const copy = <T>(v: T): T => (v === undefined ? v : JSON.parse(JSON.stringify(v)));
const socialOrOidc = new Set(['oidc', 'keycloak-oidc', 'saml', 'github', 'gitlab', 'google', 'microsoft']);
const defaultLdapMappers = ['username', 'email', 'first name', 'last name', 'creation date', 'modify date'];

function maskIdp(idp: Obj): Obj {
  const out = copy(idp);
  if (out.config?.clientSecret) out.config.clientSecret = mask;
  return out;
}
// Keycloak answers only the settings a component's provider declares: an owner marker or any other key of
// ours in a component's config is not kept.
function maskComponent(c: Obj): Obj {
  const out = copy(c);
  for (const key of Object.keys(out.config ?? {}))
    if (key.startsWith('realmforge.dev/')) delete out.config[key];
  if (out.config?.bindCredential) out.config.bindCredential = [mask];
  return out;
}

/** The federation routes; `world` holds the directories and the URLs Keycloak could fetch. */
/** Keycloak's validation of Kerberos settings (a Kerberos provider, or an LDAP provider with Kerberos on): the
 * realm, the server principal and the keytab are required. */
function kerberosInvalid(body: Obj): string | undefined {
  const config = (body.config ?? {}) as Record<string, string[] | undefined>;
  const on = body.providerId === 'kerberos' || config.allowKerberosAuthentication?.[0] === 'true';
  if (!on) return undefined;
  const missing = ['kerberosRealm', 'serverPrincipal', 'keyTab'].filter((k) => !config[k]?.[0]);
  return missing.length ? `${missing.join(', ')} must be set` : undefined;
}

export function federationRoutes(world: { directories: FakeDirectory[]; fetchable: Set<string> }) {
  const states = new WeakMap<object, FederationState>();
  const stateOf = (realm: object) => {
    const known = states.get(realm);
    if (known) return known;
    const fresh: FederationState = { identityProviders: [], idpMappers: [], components: [], users: [] };
    states.set(realm, fresh);
    return fresh;
  };
  const directoryFor = (config: Obj, stored?: Obj) => {
    const url = config.connectionUrl;
    const password =
      config.bindCredential === mask ? stored?.config.bindCredential?.[0] : config.bindCredential;
    const dir = world.directories.find((d) => d.url === url);
    if (!dir) return { error: `Connection refused: ${url}` };
    if (config.authType === 'simple' && (config.bindDn !== dir.bindDn || password !== dir.password))
      return { error: '[LDAP: error code 49 - Invalid Credentials]' };
    return { dir };
  };

  const route = function route(realm: object, parts: string[], method: string, query: string, body: any) {
    const s = stateOf(realm);
    const [, col, sub, id, leaf, leafId] = parts;
    if (col === 'identity-provider' && sub === 'import-config')
      return world.fetchable.has(body.fromUrl)
        ? reply(200, { issuer: body.fromUrl })
        : reply(400, { errorMessage: `Could not fetch ${body.fromUrl}: Connection refused` });
    if (col === 'identity-provider' && sub === 'instances') {
      if (!id) {
        if (method === 'GET') return reply(200, s.identityProviders.map(maskIdp));
        if (!socialOrOidc.has(body.providerId)) return reply(400, { errorMessage: 'Invalid provider id' });
        if (s.identityProviders.some((i) => i.alias === body.alias))
          return reply(409, { errorMessage: `Identity Provider ${body.alias} already exists` });
        s.identityProviders.push({ ...body, internalId: randomUUID() });
        return reply(201);
      }
      const idp = s.identityProviders.find((i) => i.alias === id);
      if (!idp) return reply(404);
      if (!leaf) {
        if (method === 'GET') return reply(200, maskIdp(idp));
        if (method === 'DELETE') {
          s.identityProviders = s.identityProviders.filter((i) => i !== idp);
          s.idpMappers = s.idpMappers.filter((m) => m.identityProviderAlias !== id);
          return reply(204);
        }
        const secret =
          body.config?.clientSecret === mask ? idp.config?.clientSecret : body.config?.clientSecret;
        Object.assign(idp, {
          ...body,
          config: { ...body.config, ...(secret ? { clientSecret: secret } : {}) },
        });
        return reply(204);
      }
      const mine = s.idpMappers.filter((m) => m.identityProviderAlias === id);
      if (!leafId) {
        if (method === 'GET') return reply(200, copy(mine));
        if (mine.some((m) => m.name === body.name)) return reply(409, { errorMessage: 'Mapper exists' });
        s.idpMappers.push({ ...body, identityProviderAlias: id, id: randomUUID() });
        return reply(201);
      }
      const mapper = mine.find((m) => m.id === leafId);
      if (!mapper) return reply(404);
      if (method === 'DELETE') s.idpMappers = s.idpMappers.filter((m) => m !== mapper);
      else Object.assign(mapper, { ...body, id: mapper.id });
      return reply(204);
    }
    if (col === 'components') {
      if (!sub) {
        if (method === 'GET') {
          const q = new URLSearchParams(query);
          return reply(
            200,
            s.components
              .filter((c) => c.parentId === q.get('parent') && c.providerType === q.get('type'))
              .map(maskComponent),
          );
        }
        if (s.components.some((c) => c.parentId === body.parentId && c.name === body.name))
          return reply(409, { errorMessage: 'Component exists' });
        const invalid = kerberosInvalid(body);
        if (invalid) return reply(400, { errorMessage: invalid });
        const cid = randomUUID();
        s.components.push({ ...body, id: cid });
        if (body.providerId === 'ldap')
          for (const name of defaultLdapMappers)
            s.components.push({
              id: randomUUID(),
              name,
              parentId: cid,
              providerId: 'user-attribute-ldap-mapper',
              providerType: 'org.keycloak.storage.ldap.mappers.LDAPStorageMapper',
              config: {},
            });
        return reply(201);
      }
      const c = s.components.find((x) => x.id === sub);
      if (!c) return reply(404);
      if (method === 'GET') return reply(200, maskComponent(c));
      if (method === 'DELETE') {
        s.components = s.components.filter((x) => x.id !== sub && x.parentId !== sub);
        s.users = s.users.filter((u) => u.federationLink !== sub);
        return reply(204);
      }
      const invalid = kerberosInvalid(body);
      if (invalid) return reply(400, { errorMessage: invalid });
      const kept =
        body.config?.bindCredential?.[0] === mask ? c.config.bindCredential : body.config?.bindCredential;
      Object.assign(c, {
        ...body,
        id: c.id,
        config: { ...body.config, ...(kept ? { bindCredential: kept } : {}) },
      });
      return reply(204);
    }
    if (col === 'testLDAPConnection') {
      const stored = s.components.find((c) => c.id === body.componentId);
      const { error } = directoryFor(body, stored);
      return error ? reply(400, { errorMessage: error }) : reply(204);
    }
    if (col === 'user-storage' && parts[3] === 'sync') {
      const c = s.components.find((x) => x.id === sub);
      if (!c) return reply(404);
      const flat = Object.fromEntries(Object.entries(c.config).map(([k, v]) => [k, (v as string[])[0]]));
      const { dir, error } = directoryFor(flat);
      if (!dir) return reply(500, { errorMessage: error });
      const added = dir.users.filter(
        (u) => !s.users.some((x) => x.username === u && x.federationLink === sub),
      );
      for (const username of added) s.users.push({ username, federationLink: sub });
      c.config.lastSync = [String(Date.parse('2026-01-01T00:00:00Z') / 1000)];
      return reply(200, {
        added: added.length,
        updated: 0,
        removed: 0,
        failed: 0,
        ignored: false,
        status: `${added.length} imported users`,
      });
    }
    return undefined;
  };
  return { route, stateOf };
}
