// An in-memory Keycloak admin API behind the AdminClient interface, for realm and client controller tests. It is
// as strict as the real one where the controllers depend on it: names are unique (409), unknown objects are 404,
// attributes merge on PUT, the SMTP password is never echoed ("**********"), a realm's clients and roles go with
// it, and a request it does not implement fails the test instead of answering something plausible.
import { RealmforgeError } from '../../../src/core/errors.ts';
import type { AdminClient, AdminResponse } from '../../../src/operator/keycloak/admin-client.ts';

type Rep = Record<string, unknown> & { id?: string; attributes?: Record<string, unknown> };
type RealmState = { rep: Rep; clients: Rep[]; roles: Rep[]; secrets: Map<string, string> };

/** The fake and what it saw: the writes (method and path) and the SMTP passwords it received. */
export type FakeKeycloak = AdminClient & {
  realms: Map<string, RealmState>;
  writes: string[];
  smtpPasswords: string[];
  /** While true every call fails as an unreachable Keycloak does. */
  down: boolean;
};

const masked = '**********';

function answer<T>(status: number, body?: unknown, location?: string): AdminResponse<T> {
  return { status, body: structuredClone(body) as T, location };
}

function merge(live: Rep, update: Rep): Rep {
  const attributes = { ...live.attributes, ...update.attributes };
  return { ...live, ...update, id: live.id, attributes };
}

function shown(realm: RealmState): Rep {
  const smtp = realm.rep.smtpServer as Record<string, string> | undefined;
  if (!smtp?.password) return realm.rep;
  return { ...realm.rep, smtpServer: { ...smtp, password: masked } };
}

/** A Keycloak holding `realms` (name -> representation), each with no clients and no roles yet. */
export function fakeKeycloakAdmin(initial: Record<string, Rep> = {}): FakeKeycloak {
  let ids = 1;
  const realms = new Map<string, RealmState>();
  const writes: string[] = [];
  const smtpPasswords: string[] = [];
  const newRealm = (rep: Rep): RealmState => ({
    rep: { attributes: {}, ...rep, id: `realm-${ids++}` },
    clients: [],
    roles: [],
    secrets: new Map(),
  });
  for (const [name, rep] of Object.entries(initial)) realms.set(name, newRealm({ realm: name, ...rep }));
  const recordSmtp = (rep: Rep) => {
    const password = (rep.smtpServer as Record<string, string> | undefined)?.password;
    if (password && password !== masked) smtpPasswords.push(password);
  };

  function realmCall(name: string, method: string, rest: string[], query: URLSearchParams, body: Rep) {
    const realm = realms.get(name);
    if (!realm) return answer(404, { error: 'Realm not found.' });
    const [collection, id, sub] = rest;
    if (!collection) {
      if (method === 'GET') return answer(200, shown(realm));
      if (method === 'DELETE') {
        realms.delete(name);
        return answer(204);
      }
      if (method === 'PUT') {
        recordSmtp(body);
        const smtp = body.smtpServer as Record<string, string> | undefined;
        // Keycloak keeps the stored password when it receives the mask back.
        const keep = smtp?.password === masked ? (realm.rep.smtpServer as Rep).password : smtp?.password;
        realm.rep = merge(realm.rep, smtp ? { ...body, smtpServer: { ...smtp, password: keep } } : body);
        return answer(204);
      }
    }
    if (collection === 'roles' && !id) {
      if (method === 'GET') return answer(200, realm.roles);
      if (realm.roles.some((r) => r.name === body.name)) return answer(409);
      realm.roles.push({ ...body, id: `role-${ids++}` });
      return answer(201);
    }
    if (collection === 'clients' && !id) {
      if (method === 'GET') {
        const clientId = query.get('clientId');
        return answer(
          200,
          realm.clients.filter((c) => clientId === null || c.clientId === clientId),
        );
      }
      if (realm.clients.some((c) => c.clientId === body.clientId)) return answer(409);
      const uuid = `client-${ids++}`;
      const secret = (body.secret as string | undefined) ?? `generated-secret-${ids++}`;
      realm.secrets.set(uuid, secret);
      // The list answer carries a confidential client's secret, as Keycloak's does for an admin.
      realm.clients.push({
        protocolMappers: [],
        ...body,
        id: uuid,
        secret: body.publicClient ? undefined : secret,
      });
      return answer(201, undefined, `/admin/realms/${name}/clients/${uuid}`);
    }
    if (collection === 'clients' && id) {
      const index = realm.clients.findIndex((c) => c.id === id);
      if (index < 0) return answer(404, { error: 'Could not find client' });
      if (sub === 'client-secret' && method === 'GET')
        return answer(200, { type: 'secret', value: realm.secrets.get(id) });
      if (!sub && method === 'PUT') {
        realm.clients[index] = merge(realm.clients[index], body);
        return answer(204);
      }
      if (!sub && method === 'DELETE') {
        realm.clients.splice(index, 1);
        return answer(204);
      }
    }
    throw new Error(`fake Keycloak does not implement ${method} /${name}/${rest.join('/')}`);
  }

  const fake: FakeKeycloak = {
    baseUrl: 'http://keycloak.fake',
    realms,
    writes,
    smtpPasswords,
    down: false,
    async call<T>(_ns: string, method: string, path: string, body?: unknown): Promise<AdminResponse<T>> {
      if (fake.down) throw new RealmforgeError('transient', 'Keycloak is unreachable (connect ECONNREFUSED)');
      const [pathname, search] = path.split('?');
      const segments = pathname.split('/').filter(Boolean).map(decodeURIComponent);
      if (method !== 'GET') writes.push(`${method} /${segments.join('/')}`);
      const rep = structuredClone((body ?? {}) as Rep);
      if (!segments.length && method === 'POST') {
        const name = rep.realm as string;
        if (realms.has(name)) return answer(409, { errorMessage: `Conflict detected. See logs for details` });
        recordSmtp(rep);
        const state = newRealm({ ...rep, roles: undefined });
        const roles = ((rep.roles as { realm?: Rep[] } | undefined)?.realm ?? []) as Rep[];
        state.roles = roles.map((r) => ({ ...r, id: `role-${ids++}` }));
        realms.set(name, state);
        return answer(201);
      }
      if (!segments.length) throw new Error(`fake Keycloak does not implement ${method} /`);
      const [name, ...rest] = segments;
      return realmCall(name, method, rest, new URLSearchParams(search ?? ''), rep) as AdminResponse<T>;
    },
  };
  return fake;
}
