// Measures the size of the admin access token against a real Keycloak as realms are added, for the three
// identities one could use: the master admin by password grant with admin-cli (what the operator used before),
// the operator's client realmforge-operator with lightweight access tokens (what it uses now), and the same client
// without them. Each token is also used for one admin call (GET /admin/realms/<last realm>) to show it works.
//   node scripts/bench/token-sizes.ts <keycloak-url> <admin-user> <admin-password> [counts, e.g. 10,100]
// It creates realms named token-size-<n> (and leaves them: run it on a throw-away Keycloak).

import { systemClock } from '../../src/core/clock.ts';
import { createAdminClient } from '../../src/operator/keycloak/admin-client.ts';
import type { AdminIdentity } from '../../src/operator/keycloak/admin-identity.ts';
import { tokenForm } from '../../src/operator/keycloak/admin-identity.ts';
import { provisionOperatorClient } from '../../src/operator/keycloak/operator-client.ts';

const [url, username, password, countsArg = '10,100'] = process.argv.slice(2);
if (!url || !username || !password) {
  console.error(
    'usage: node scripts/bench/token-sizes.ts <keycloak-url> <admin-user> <admin-password> [10,100]',
  );
  process.exit(2);
}
const base = url.replace(/\/$/, '');
const deps = {
  http: (u: string, init?: Parameters<typeof fetch>[1]) => fetch(u, init as RequestInit),
  limiter: { acquire: async () => {}, stop: async () => {} },
  clock: systemClock,
  random: Math.random,
  count: () => {},
  canWrite: () => true,
  timeoutMs: 120_000,
};
const admin = createAdminClient(base, { username, password }, deps);

async function token(identity: AdminIdentity): Promise<string> {
  const res = await fetch(`${base}/realms/master/protocol/openid-connect/token`, {
    method: 'POST',
    body: tokenForm(identity),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no token: HTTP ${res.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

async function works(value: string, realm: string): Promise<number> {
  const res = await fetch(`${base}/admin/realms/${realm}`, { headers: { authorization: `Bearer ${value}` } });
  await res.text();
  return res.status;
}

const operator = await provisionOperatorClient(admin, 'bench');
const clients = await admin.call<{ id: string }[]>(
  'bench',
  'GET',
  '/master/clients?clientId=realmforge-operator',
);
const id = clients.body[0]?.id as string;
const setLightweight = async (on: boolean) => {
  const rep = (await admin.call<Record<string, unknown>>('bench', 'GET', `/master/clients/${id}`)).body;
  const attributes = {
    ...(rep.attributes as object),
    'client.use.lightweight.access.token.enabled': String(on),
  };
  await admin.call('bench', 'PUT', `/master/clients/${id}`, { ...rep, attributes });
};

let existing = 0;
console.log('realms | admin password grant | operator client, lightweight | operator client, full token');
for (const count of countsArg.split(',').map(Number)) {
  const started = performance.now();
  const before = existing;
  for (; existing < count; existing++) {
    await admin.call('bench', 'POST', '', { realm: `token-size-${existing}`, enabled: true });
  }
  const createMs = performance.now() - started;
  const last = `token-size-${count - 1}`;
  const cells: string[] = [];
  for (const identity of ['admin', 'light', 'full'] as const) {
    if (identity !== 'admin') await setLightweight(identity === 'light');
    const value = await token(identity === 'admin' ? { username, password } : operator);
    cells.push(`${Buffer.byteLength(value)} B (GET realm: HTTP ${await works(value, last)})`);
  }
  await setLightweight(true);
  console.log(
    `${count} | ${cells.join(' | ')} | (${(createMs / Math.max(1, existing - before)) | 0} ms per realm created)`,
  );
}
