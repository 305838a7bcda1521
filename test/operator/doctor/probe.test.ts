// A probe always ends: a read that never settles (as one through the API server's service proxy did, holding
// nothing that kept Node running, so doctor exited 0 without a report) is aborted and reported after its timeout.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { probe } from '../../../src/operator/doctor/read-snapshot.ts';

test('a read that never settles is aborted and reported after the timeout', async () => {
  let aborted: unknown;
  const never = (signal: AbortSignal) =>
    new Promise<never>(() => {
      signal.addEventListener('abort', () => {
        aborted = signal.reason;
      });
    });
  const result = await probe(never, /UP/, 50);
  assert.equal(result, { ok: false, detail: 'no answer within 0.05 s' });
  assert.instance(aborted, Error, 'the read was aborted');
});

test('an answer in time is judged as before', async () => {
  assert.equal(await probe(async () => ({ status: 200, text: '{"status":"UP"}' }), /UP/, 50), {
    ok: true,
    detail: 'HTTP 200',
  });
  const down = await probe(async () => ({ status: 503, text: 'DOWN' }), /UP/, 50);
  assert.equal(down, { ok: false, detail: 'HTTP 503: DOWN' });
});

test.run();
