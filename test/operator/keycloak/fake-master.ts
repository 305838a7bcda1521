// The part of Keycloak's master realm the operator's identity uses, as strict as the real one where it matters:
// the token endpoint (password grant for admin-cli with one password; client_credentials only with the client's
// current secret), and, for the admin's bearer token only, the client, service-account, role and secret calls
// that create the operator's client. Tokens of the operator's client are accepted on every admin call.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The fake's state: the admin password, the operator client once created, what was called. */
export type MasterState = {
  password?: string;
  client?: {
    id: string;
    secret: string;
    roles: string[];
    lightweight: boolean;
    clientId?: string;
    attributes?: Record<string, string>;
  };
  secrets: number;
  calls: string[];
};

export const masterState = (password?: string): MasterState => ({ password, secrets: 0, calls: [] });

const send = (res: ServerResponse, status: number, body?: unknown) =>
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(body === undefined ? '' : JSON.stringify(body));

/** Handles the request when it is one of master's; returns false otherwise. */
export function handleMaster(
  state: MasterState,
  req: IncomingMessage,
  res: ServerResponse,
  body: string,
): boolean {
  const url = req.url ?? '';
  if (url === '/realms/master/protocol/openid-connect/token' && req.method === 'POST') {
    const form = new URLSearchParams(body);
    state.calls.push(`token ${form.get('grant_type')} ${form.get('client_id')}`);
    if (form.get('grant_type') === 'password') {
      const ok = form.get('client_id') === 'admin-cli' && form.get('password') === state.password;
      send(res, ok ? 200 : 401, ok ? { access_token: 't', expires_in: 60 } : { error: 'invalid_grant' });
    } else {
      const c = state.client;
      const ok =
        c &&
        form.get('client_id') === (c.clientId ?? 'realmforge-operator') &&
        form.get('client_secret') === c.secret;
      send(
        res,
        ok ? 200 : 401,
        ok ? { access_token: `op-${c.secret}`, expires_in: 60 } : { error: 'invalid_client' },
      );
    }
    return true;
  }
  const serverInfo = url === '/admin/serverinfo';
  if (!url.startsWith('/admin/realms/master') && !serverInfo) return false;
  const auth = req.headers.authorization ?? '';
  const operator = state.client && auth === `Bearer op-${state.client.secret}`;
  if (auth !== 'Bearer t' && !operator) {
    send(res, 401, { error: 'HTTP 401 Unauthorized' });
    return true;
  }
  if (serverInfo) {
    // Any admin, create-realm alone included, reads the server info.
    state.calls.push(`GET serverinfo${operator ? ' (operator)' : ''}`);
    send(res, 200, { systemInfo: { version: '26.0.7' } });
    return true;
  }
  const path = url.slice('/admin/realms/master'.length);
  state.calls.push(`${req.method} ${path}${operator ? ' (operator)' : ''}`);
  const c = state.client;
  if (path === '' && req.method === 'GET') send(res, 200, { realm: 'master' });
  else if (path.startsWith('/clients?clientId=')) {
    const asked = decodeURIComponent(path.slice('/clients?clientId='.length));
    const match = c && (c.clientId ?? 'realmforge-operator') === asked;
    send(res, 200, match ? [{ id: c.id, clientId: asked, attributes: c.attributes ?? {} }] : []);
  } else if (path === '/clients' && req.method === 'POST') {
    const rep = JSON.parse(body) as {
      clientId?: string;
      attributes?: Record<string, string>;
      serviceAccountsEnabled?: boolean;
    };
    if (c) {
      send(res, 409, { errorMessage: 'Client realmforge-operator already exists' });
      return true;
    }
    state.client = {
      id: 'op-uuid',
      clientId: rep.clientId,
      secret: 'initial',
      roles: [],
      lightweight: rep.attributes?.['client.use.lightweight.access.token.enabled'] === 'true',
      attributes: rep.attributes,
    };
    res.writeHead(201, { location: '/admin/realms/master/clients/op-uuid' }).end();
  } else if (c && path === `/clients/${c.id}/service-account-user`) send(res, 200, { id: 'sa-user' });
  else if (path === '/roles/admin') send(res, 200, { id: 'admin-role', name: 'admin' });
  else if (path === '/roles/create-realm') send(res, 200, { id: 'create-realm-role', name: 'create-realm' });
  else if (c && path === '/users/sa-user/role-mappings/realm' && req.method === 'GET')
    send(
      res,
      200,
      c.roles.map((name) => ({ name })),
    );
  else if (c && path === '/users/sa-user/role-mappings/realm' && req.method === 'POST') {
    c.roles.push(...(JSON.parse(body) as { name: string }[]).map((r) => r.name));
    send(res, 204);
  } else if (c && path === `/clients/${c.id}/client-secret` && req.method === 'POST') {
    c.secret = `secret-${++state.secrets}`;
    send(res, 200, { type: 'secret', value: c.secret });
  } else send(res, 404, { error: 'not found' });
  return true;
}
