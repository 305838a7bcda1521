// The operator's admin client and its two-level rate limiter against the real Keycloak, measured benchmark-style
// with wide margins: a global limit of 5 per second stretches 50 admin calls over about 10 s, and with a
// per-namespace limit one busy namespace does not hold back another.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type TestEnv, testEnv } from '../../scripts/testenv/harness.ts';
import { systemClock } from '../../src/core/clock.ts';
import { createAdminClient } from '../../src/operator/keycloak/admin-client.ts';
import { createRateLimiter } from '../../src/operator/keycloak/rate-limits.ts';
import type { RateLimit } from '../../src/operator/runtime/operator-settings.ts';

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});

/** An admin client on the environment's Keycloak with the given limits; counts the calls that reached it. */
function limitedAdmin(limits: { global: RateLimit; namespace: RateLimit }) {
  const kc = env.state.keycloak;
  if (!kc) throw new Error('the environment started no Keycloak');
  const limiter = createRateLimiter(limits, { waited: () => undefined, queued: () => undefined });
  let sent = 0;
  const admin = createAdminClient(
    kc.httpUrl,
    { username: kc.adminUsername, password: kc.adminPassword },
    {
      http: (url, init) => fetch(url, init),
      limiter,
      clock: systemClock,
      random: Math.random,
      count: () => sent++,
      canWrite: () => true,
    },
  );
  return { admin, limiter, sent: () => sent };
}

/** Seconds from now until every call of `calls` answered 200. */
async function timed(calls: Promise<{ status: number }>[]): Promise<number> {
  const started = performance.now();
  const answers = await Promise.all(calls);
  assert.ok(
    answers.every((a) => a.status === 200),
    `every call answered 200: ${answers.map((a) => a.status)}`,
  );
  return (performance.now() - started) / 1000;
}

test('a global limit of 5 per second (burst 5) makes 50 admin calls take about 10 s', async () => {
  const { admin, limiter, sent } = limitedAdmin({
    global: { tps: 5, burst: 5 },
    namespace: { tps: 1000, burst: 1000 },
  });
  const seconds = await timed(
    Array.from({ length: 49 }, (_, i) => admin.call(`team-${i % 7}`, 'GET', '/master')),
  );
  await limiter.stop();
  assert.is(sent(), 50, 'one token request and 49 reads, all through the limiter');
  // 45 calls beyond the burst at 5 per second: 9 s. Wide margins both ways.
  assert.ok(seconds >= 8, `50 calls at 5/s took ${seconds.toFixed(1)} s, expected about 10 s`);
  assert.ok(seconds < 30, `50 calls at 5/s took ${seconds.toFixed(1)} s, far more than about 10 s`);
});

test('with a per-namespace limit, a busy namespace waits in its own queue and another namespace goes ahead', async () => {
  const { admin, limiter } = limitedAdmin({
    global: { tps: 1000, burst: 1000 },
    namespace: { tps: 2, burst: 2 },
  });
  await admin.call('quiet', 'GET', '/master'); // the token, fetched once for both namespaces
  await new Promise((r) => setTimeout(r, 1500)); // the quiet namespace's bucket refills
  const busy = timed(Array.from({ length: 20 }, () => admin.call('busy', 'GET', '/master')));
  await new Promise((r) => setTimeout(r, 200));
  const quiet = await timed([admin.call('quiet', 'GET', '/master'), admin.call('quiet', 'GET', '/master')]);
  const busySeconds = await busy;
  await limiter.stop();
  assert.ok(
    busySeconds >= 7,
    `20 calls at 2/s in one namespace took ${busySeconds.toFixed(1)} s, expected 9 s`,
  );
  assert.ok(quiet < 2, `the quiet namespace's 2 calls took ${quiet.toFixed(1)} s behind the busy one`);
});

test.run();
