// The rules of one exchange with Keycloak, with a scripted HTTP function and the manual clock: a POST whose answer
// was lost is never re-sent, writes are fenced per attempt and aborted in flight, Retry-After is capped, and the
// circuit breaker keeps a failing Keycloak to a few calls a minute.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { manualClock } from '../../../src/core/clock.ts';
import { type Exchange, exchange, keycloakRetry } from '../../../src/operator/keycloak/admin-exchange.ts';
import { circuitBreaker } from '../../../src/operator/keycloak/circuit-breaker.ts';
import { OutcomeUnknownError } from '../../../src/operator/keycloak/outcome-unknown.ts';
import { refusalMemory } from '../../../src/operator/keycloak/repeated-refusal.ts';
import type { HttpClient } from '../../../src/operator/runtime/deps.ts';

type Step = number | 'timeout' | 'refused' | 'reset' | { status: number; retryAfter?: string; body?: string };

/** An HTTP function answering from `script` (then `rest`), logging every call it receives. */
function scripted(script: Step[], rest: Step = 200) {
  const sent: string[] = [];
  const http: HttpClient = async (url, init) => {
    const step = script.shift() ?? rest;
    if (step === 'refused')
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    sent.push(`${init?.method} ${url}`);
    if (step === 'timeout')
      throw new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    if (step === 'reset')
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
    const { status, retryAfter, body } = typeof step === 'number' ? { status: step } : step;
    return {
      status,
      text: async () => body ?? '{}',
      headers: { get: (h: string) => (h === 'retry-after' ? (retryAfter ?? null) : null) },
    };
  };
  return { http, sent };
}

function setup(http: HttpClient, canWrite = () => true, signal?: AbortSignal) {
  const clock = manualClock();
  const slept: number[] = [];
  const deps = {
    http,
    limiter: { acquire: async () => {}, stop: async () => {} },
    clock,
    count: () => {},
    canWrite,
    signal,
    breaker: circuitBreaker('http://kc', clock),
    refusals: refusalMemory(),
    timeoutMs: 30_000,
    retry: keycloakRetry,
    sleep: async (ms: number) => {
      slept.push(ms);
      clock.advance(ms);
    },
  };
  return { deps, clock, slept };
}

const post: Exchange = {
  namespace: 'ns',
  method: 'POST',
  url: 'http://kc/admin/realms',
  path: '/',
  headers: {},
  body: '{"realm":"a"}',
  write: true,
  idempotent: false,
};
const put: Exchange = {
  ...post,
  method: 'PUT',
  url: 'http://kc/admin/realms/a',
  path: '/a',
  idempotent: true,
};

test('a POST whose answer was lost (timeout, reset, 500/502/504) is sent once and raises OutcomeUnknownError', async () => {
  for (const lost of ['timeout', 'reset', 500, 502, 504] as Step[]) {
    const kc = scripted([lost]);
    const error = await exchange(setup(kc.http).deps, post).catch((e) => e);
    assert.instance(error, OutcomeUnknownError, String(lost));
    assert.match(error.message, /Keycloak POST \/: the answer was lost/);
    assert.equal(kc.sent, ['POST http://kc/admin/realms'], `${lost}: sent once`);
  }
});

test('a POST that was not applied (refused connection, 429, 503) is sent again', async () => {
  const kc = scripted(['refused', 429, 503]);
  const answer = await exchange(setup(kc.http).deps, post);
  assert.is(answer.status, 200);
  assert.is(kc.sent.length, 3, '429 and 503 reached the server, the refused attempt did not');
});

test('PUT and GET are idempotent: a lost answer is retried', async () => {
  const kc = scripted(['timeout', 502]);
  assert.is((await exchange(setup(kc.http).deps, put)).status, 200);
  assert.is(kc.sent.length, 3);
});

test('Retry-After is honoured but capped at 10 s', async () => {
  const kc = scripted([
    { status: 429, retryAfter: '3' },
    { status: 503, retryAfter: '86400' },
  ]);
  const { deps, slept } = setup(kc.http);
  await exchange(deps, put);
  assert.equal(slept, [3000, 10_000]);
});

test('leadership is checked before every attempt: lost while waiting, nothing more is sent', async () => {
  let leading = true;
  const kc = scripted([503]);
  const { deps } = setup(kc.http, () => leading);
  const loseLease = async () => {
    leading = false;
  };
  const error = await exchange({ ...deps, sleep: loseLease }, put).catch((e) => e);
  assert.match(error.message, /not the leader any more/);
  assert.is(kc.sent.length, 1);
});

test('losing leadership aborts a write in flight', async () => {
  const lease = new AbortController();
  let sent = 0;
  const http: HttpClient = (_url, init) =>
    new Promise((_resolve, reject) => {
      sent++;
      init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      lease.abort(new Error('lease lost'));
    });
  const error = await exchange(setup(http, () => !lease.signal.aborted, lease.signal).deps, put).catch(
    (e) => e,
  );
  assert.match(error.message, /not the leader any more/);
  assert.is(sent, 1);
});

test('steady 500s for 60 s: the breaker keeps it to a handful of calls, and a probe closes it when Keycloak is back', async () => {
  const kc = scripted([], 500);
  const { deps, clock } = setup(kc.http);
  const started = clock.now();
  let failed = 0;
  // A tight caller: one call a second, whatever happens.
  while (clock.now() - started < 60_000) {
    await exchange(deps, put).catch(() => failed++);
    clock.advance(1000);
  }
  assert.ok(kc.sent.length <= 10, `${kc.sent.length} calls in 60 s`);
  assert.is(deps.breaker.state(), 'open');
  const fastFail = await exchange(deps, put).catch((e) => e);
  assert.match(
    fastFail.message,
    /not sent, Keycloak at http:\/\/kc failed \d+ calls in a row, the last with HTTP 500 \{\} \(circuit open/,
  );
  const healthy = scripted([], 200);
  const back = { ...deps, http: healthy.http };
  clock.advance(30_000);
  assert.is((await exchange(back, put)).status, 200, 'the probe goes through');
  assert.is(deps.breaker.state(), 'closed');
  assert.ok(failed > 50);
});

test("the breaker's refusal names the last failure as it was: 429 and Keycloak's words, or the connection error", async () => {
  const throttled = { status: 429, retryAfter: '2', body: '{"error":"too many requests"}' };
  const kc = scripted([], throttled);
  const { deps } = setup(kc.http);
  const first = await exchange(deps, put).catch((e) => e);
  assert.match(first.message, /failed after 4 attempts: HTTP 429 too many requests/);
  await exchange(deps, put).catch(() => undefined);
  const open = await exchange(deps, put).catch((e) => e);
  assert.match(open.message, /calls in a row, the last with HTTP 429 too many requests \(circuit open/);
  const down = setup(scripted([], 'refused').http).deps;
  for (let i = 0; i < 2; i++) await exchange(down, put).catch(() => undefined);
  const refused = await exchange(down, put).catch((e) => e);
  assert.match(refused.message, /the last with ECONNREFUSED: fetch failed/);
});

const unknownError = { status: 500, body: '{"error":"unknown_error"}' };
const get: Exchange = { ...put, method: 'GET', body: undefined, write: false };

test('a 500 repeated for the same body while Keycloak answers other calls is the content refused (validation)', async () => {
  const kc = scripted([unknownError, unknownError, unknownError, unknownError, 200, unknownError]);
  const { deps } = setup(kc.http);
  const first = await exchange(deps, put).catch((e) => e);
  assert.is(first.kind, 'transient', 'alone, four 500s look like an unavailable Keycloak');
  assert.match(first.message, /HTTP 500 unknown_error/);
  assert.is((await exchange(deps, get)).status, 200);
  const again = await exchange(deps, put).catch((e) => e);
  assert.is(again.kind, 'validation');
  assert.match(
    again.message,
    /Keycloak refused PUT \/a again with HTTP 500 unknown_error while it answered other calls/,
  );
  assert.is(kc.sent.length, 6, 'the refusal is not retried');
  // A create: the first 500 is an unknown outcome (read back), the second the content's refusal, though each
  // attempt carries a newly generated secret.
  const create = setup(scripted([unknownError, 200, unknownError]).http).deps;
  const withSecret = (secret: string) => ({ ...post, body: JSON.stringify({ clientId: 'a', secret }) });
  assert.instance(await exchange(create, withSecret('s1')).catch((e) => e), OutcomeUnknownError);
  await exchange(create, get);
  assert.is((await exchange(create, withSecret('s2')).catch((e) => e)).kind, 'validation');
});

test('not a refusal: 500s to everything, another body, or a token request (not a write)', async () => {
  const { deps } = setup(scripted([], unknownError).http);
  for (let i = 0; i < 3; i++) assert.is((await exchange(deps, put).catch((e) => e)).kind, 'transient');
  const mixed = setup(scripted([unknownError, 200, unknownError, 200]).http).deps;
  const once = { ...keycloakRetry, retries: 0 };
  await exchange({ ...mixed, retry: once }, put).catch(() => undefined);
  await exchange(mixed, get);
  const other = await exchange({ ...mixed, retry: once }, { ...put, body: '{"realm":"b"}' }).catch((e) => e);
  assert.is(other.kind, 'transient', 'another body is another request');
  const token = { ...post, write: false, idempotent: true };
  const tokens = setup(scripted([unknownError, 200, unknownError]).http).deps;
  await exchange({ ...tokens, retry: once }, token).catch(() => undefined);
  await exchange(tokens, get);
  const t = await exchange({ ...tokens, retry: once }, token).catch((e) => e);
  assert.is(t.kind, 'transient');
});

test('a slow answer is a success: it never opens the breaker', async () => {
  const clock = manualClock();
  const slow: HttpClient = async () => {
    clock.advance(9_000);
    return { status: 200, text: async () => '{}' };
  };
  const { deps } = setup(slow);
  for (let i = 0; i < 10; i++) await exchange({ ...deps, clock }, put);
  assert.is(deps.breaker.state(), 'closed');
});

test.run();
