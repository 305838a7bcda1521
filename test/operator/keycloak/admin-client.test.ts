// The admin client against a local HTTP server playing Keycloak's token and admin endpoints.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { manualClock } from '../../../src/core/clock.ts';
import { RealmforgeError } from '../../../src/core/errors.ts';
import { createAdminClient } from '../../../src/operator/keycloak/admin-client.ts';
import {
  TokenRealmAbsentError,
  TokenRealmClosedError,
  TokenRefusedError,
} from '../../../src/operator/keycloak/admin-identity.ts';
import { createRateLimiter } from '../../../src/operator/keycloak/rate-limits.ts';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

async function keycloak(handler: Handler) {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`.trim());
      handler(req, res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise((r) => server.close(r)) };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

function deps(clock = manualClock(), canWrite = () => true) {
  const counted: string[] = [];
  return {
    counted,
    clock,
    value: {
      http: (url: string, init?: Parameters<typeof fetch>[1]) => fetch(url, init as RequestInit),
      limiter: { acquire: async () => {}, stop: async () => {} },
      clock,
      random: () => 0.5,
      count: (ns: string, method: string, status: string, path: string) =>
        counted.push(`${ns} ${method} ${status} ${path}`),
      canWrite,
      sleep: async () => {},
    },
  };
}

let tokens = 0;
const tokenAnswer: Handler = (_req, res, body) => {
  const form = new URLSearchParams(body);
  if (
    form.get('client_id') !== 'admin-cli' ||
    form.get('grant_type') !== 'password' ||
    form.get('password') !== 'pw'
  ) {
    json(res, 401, { error: 'invalid_grant', error_description: 'Invalid user credentials' });
    return;
  }
  json(res, 200, { access_token: `t${++tokens}`, expires_in: 60 });
};

test('password grant on master with admin-cli, cached until shortly before expiry, then refreshed', async () => {
  tokens = 0;
  const kc = await keycloak((req, res, body) => {
    if (req.url?.startsWith('/realms/master/')) return tokenAnswer(req, res, body);
    json(res, 200, { realm: 'x' });
  });
  const d = deps();
  const admin = createAdminClient(kc.url, { username: 'admin', password: 'pw' }, d.value);
  await admin.call('team-a', 'GET', '/x');
  await admin.call('team-a', 'GET', '/x');
  d.clock.advance(47_000);
  await admin.call('team-a', 'GET', '/x');
  d.clock.advance(2_000);
  await admin.call('team-a', 'GET', '/x');
  await kc.close();
  const tokenCalls = kc.seen.filter((s) => s.startsWith('POST /realms/master/protocol/openid-connect/token'));
  assert.is(tokenCalls.length, 2, 'one token, reused, renewed after 80% of its 60 s life');
  assert.is(kc.seen.filter((s) => s.endsWith('Bearer t1')).length, 3);
  assert.ok(kc.seen.at(-1)?.endsWith('Bearer t2'));
  assert.ok(d.counted.includes('team-a GET 200 /x'), 'each call counted with the path it was given');
  assert.ok(d.counted.includes('team-a POST 200 /realms/master/protocol/openid-connect/token'));
});

test("each token's subject is learnt (change detection tells the operator's own admin events by it)", async () => {
  const jwt = (claims: object) =>
    ['{"alg":"RS256"}', JSON.stringify(claims), 'sig']
      .map((p) => Buffer.from(p).toString('base64url'))
      .join('.');
  let claims: object = { sub: 'service-account-user-id', azp: 'realmforge-operator' };
  const kc = await keycloak((req, res) =>
    req.url?.endsWith('/token')
      ? json(res, 200, { access_token: jwt(claims), expires_in: 60 })
      : json(res, 200, { realm: 'alpha' }),
  );
  const d = deps();
  const subjects: string[] = [];
  const identity = { clientId: 'realmforge-operator', clientSecret: 's', realm: 'alpha' };
  const admin = createAdminClient(kc.url, identity, { ...d.value, subject: (id) => subjects.push(id) });
  await admin.call('team-a', 'GET', '/alpha');
  claims = { azp: 'realmforge-operator' }; // a lightweight token: no subject, nothing learnt
  d.clock.advance(60_000);
  await admin.call('team-a', 'GET', '/alpha');
  claims = { sub: 'admin-user-id' };
  const password = { username: 'admin', password: 'pw' };
  await createAdminClient(kc.url, password, { ...d.value, subject: (id) => subjects.push(id) }).call(
    'team-a',
    'GET',
    '/alpha',
  );
  await kc.close();
  assert.equal(subjects, ['service-account-user-id'], "not the bootstrap admin's: a person may use it too");
  assert.is(kc.seen.filter((s) => s.includes('/token')).length, 3);
});

test("a realm identity's token comes from its realm's endpoint; a realm that does not exist is named", async () => {
  const kc = await keycloak((req, res, body) => {
    const form = new URLSearchParams(body);
    if (req.url === '/realms/alpha/protocol/openid-connect/token')
      return form.get('grant_type') === 'client_credentials' && form.get('client_secret') === 's'
        ? json(res, 200, { access_token: 'alpha-token', expires_in: 60 })
        : json(res, 401, { error: 'invalid_client' });
    if (req.url === '/realms/off/protocol/openid-connect/token')
      return json(res, 403, { error: 'access_denied', error_description: 'Realm not enabled' });
    if (req.url?.startsWith('/realms/')) return json(res, 404, { error: 'Realm does not exist' });
    json(res, 200, { realm: 'alpha' });
  });
  const d = deps();
  const identity = { clientId: 'realmforge-operator', clientSecret: 's' };
  await createAdminClient(kc.url, { ...identity, realm: 'alpha' }, d.value).call('team-a', 'GET', '/alpha');
  assert.ok(kc.seen.includes('GET /admin/realms/alpha Bearer alpha-token'), kc.seen.join('; '));
  try {
    await createAdminClient(kc.url, { ...identity, realm: 'nowhere' }, d.value).call(
      'team-a',
      'GET',
      '/nowhere',
    );
    assert.unreachable();
  } catch (e) {
    assert.instance(e, TokenRealmAbsentError);
  }
  try {
    await createAdminClient(kc.url, { ...identity, realm: 'off' }, d.value).call('team-a', 'GET', '/off');
    assert.unreachable();
  } catch (e) {
    assert.instance(e, TokenRealmClosedError);
    assert.match((e as Error).message, 'Realm not enabled');
  }
  try {
    await createAdminClient(kc.url, { ...identity, clientSecret: 'old', realm: 'alpha' }, d.value).call(
      'team-a',
      'GET',
      '/alpha',
    );
    assert.unreachable();
  } catch (e) {
    assert.instance(e, TokenRefusedError);
  }
  await kc.close();
});

test('a retried token request counts as many token requests as requests: no admin write appears', async () => {
  let refused = 0;
  const kc = await keycloak((req, res, body) => {
    // A loaded Keycloak: the first token attempt is answered 503, the retry succeeds.
    if (req.url?.startsWith('/realms/master/'))
      return refused++ ? tokenAnswer(req, res, body) : json(res, 503, { error: 'busy' });
    json(res, 200, { realm: 'x' });
  });
  const d = deps();
  let tokenRequests = 0;
  const admin = createAdminClient(
    kc.url,
    { username: 'admin', password: 'pw' },
    { ...d.value, countToken: () => tokenRequests++ },
  );
  await admin.call('team-a', 'GET', '/x');
  await kc.close();
  const posts = d.counted.filter((c) => c.includes(' POST ')).length;
  assert.is(posts, 2, 'two token attempts reached Keycloak');
  assert.is(tokenRequests, posts, 'requests minus token requests: zero writes');
});

test('a 401 on an admin call gets one retry with a fresh token', async () => {
  tokens = 0;
  let rejected = false;
  const kc = await keycloak((req, res, body) => {
    if (req.url?.startsWith('/realms/master/')) return tokenAnswer(req, res, body);
    if (!rejected) {
      rejected = true;
      return json(res, 401, { error: 'HTTP 401 Unauthorized' });
    }
    json(res, 200, { ok: true });
  });
  const admin = createAdminClient(kc.url, { username: 'admin', password: 'pw' }, deps().value);
  const res = await admin.call('ns', 'GET', '/x');
  await kc.close();
  assert.is(res.status, 200);
  assert.ok(kc.seen.at(-1)?.endsWith('Bearer t2'));
});

test('429 with Retry-After and 503 are retried; persistent failure is a transient error naming the call', async () => {
  tokens = 0;
  const answers = [429, 503, 200];
  const slept: number[] = [];
  const kc = await keycloak((req, res, body) => {
    if (req.url?.startsWith('/realms/master/')) return tokenAnswer(req, res, body);
    const status = answers.shift() ?? 503;
    json(res, status, { status }, status === 429 ? { 'retry-after': '3' } : {});
  });
  const d = deps();
  const admin = createAdminClient(
    kc.url,
    { username: 'admin', password: 'pw' },
    {
      ...d.value,
      sleep: async (ms: number) => {
        slept.push(ms);
      },
    },
  );
  assert.is((await admin.call('ns', 'GET', '/x')).status, 200);
  assert.is(slept[0], 3000, 'Retry-After is honoured');
  try {
    await admin.call('ns', 'PUT', '/x', { a: 1 });
    assert.unreachable();
  } catch (e) {
    assert.instance(e, RealmforgeError);
    assert.is((e as RealmforgeError).kind, 'transient');
    assert.match(
      (e as Error).message,
      /PUT http:\/\/127\.0\.0\.1:\d+\/admin\/realms\/x failed after 4 attempts: HTTP 503/,
    );
  }
  await kc.close();
});

test('wrong admin credentials are an auth error; a replica that is not the leader sends no write', async () => {
  const kc = await keycloak((req, res, body) => tokenAnswer(req, res, body));
  const admin = createAdminClient(kc.url, { username: 'admin', password: 'wrong' }, deps().value);
  try {
    await admin.call('ns', 'GET', '/x');
    assert.unreachable();
  } catch (e) {
    assert.is((e as RealmforgeError).kind, 'auth');
    assert.match((e as Error).message, /refused the admin credentials \(HTTP 401 Invalid user credentials\)/);
  }
  const before = kc.seen.length;
  const follower = createAdminClient(
    kc.url,
    { username: 'admin', password: 'pw' },
    deps(manualClock(), () => false).value,
  );
  try {
    await follower.call('ns', 'DELETE', '/x');
    assert.unreachable();
  } catch (e) {
    assert.match((e as Error).message, /not the leader/);
  }
  assert.is(kc.seen.length, before, 'nothing was sent');
  await kc.close();
});

test('connection refused is retried and then reported as transient', async () => {
  const closed = await keycloak(() => {});
  await closed.close();
  const admin = createAdminClient(closed.url, { username: 'admin', password: 'pw' }, deps().value);
  try {
    await admin.call('ns', 'GET', '/x');
    assert.unreachable();
  } catch (e) {
    assert.is((e as RealmforgeError).kind, 'transient');
    assert.match((e as Error).message, /failed after 4 attempts: ECONNREFUSED/);
  }
});

test('a token request waits in a bucket of its own, never in the queue of the namespace that needed it first', async () => {
  const kc = await keycloak((req, res, body) => {
    if (req.url?.includes('/token')) tokenAnswer(req, res, body);
    else json(res, 200, {});
  });
  const clock = manualClock();
  // busy is at its limit: its calls never get a slot in this test; calm's always do.
  const limiter = createRateLimiter(
    { global: { tps: 100, burst: 100 }, namespace: { tps: 1, burst: 1 } },
    { waited: () => {}, queued: () => {} },
    clock,
  );
  await limiter.acquire('busy');
  const busyCall = { ...deps(clock).value, limiter };
  const admin = createAdminClient(kc.url, { username: 'admin', password: 'pw' }, busyCall);
  const queued = admin.call('busy', 'GET', '/queued'); // needs a token, then busy's next slot
  const calm = await admin.call('calm', 'GET', '/calm'); // shares that token
  assert.is(calm.status, 200, 'calm was not held up by busy waiting for its limit');
  assert.ok(!kc.seen.some((s) => s.startsWith('GET /admin/realms/queued')), 'busy still waits for its slot');
  clock.advance(1000);
  assert.is((await queued).status, 200);
  await limiter.stop();
  await kc.close();
});

test.run();
