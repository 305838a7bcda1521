import * as assert from 'uvu/assert';
import { recordDelivery } from '../fake-bitbucket/routes/webhook-stats.ts';
import { assertSchema, fakeSuite } from './helpers/pr.ts';

const s = fakeSuite('bbdc webhook stats', 'suite');
const { test, run } = s;
const t0 = 1_700_000_000_000;

test('webhook stats: counts and the last success and failure of a repository webhook', async () => {
  const created = (
    await run([
      'webhook',
      'create',
      '--name',
      'ci',
      '--url',
      'https://ci.example.test/hook',
      '--events',
      'repo:refs_changed',
      '--json',
    ])
  ).json().data;
  const id = created.id;
  recordDelivery(s.fake.state, id, {
    outcome: 'SUCCESS',
    event: 'repo:refs_changed',
    start: t0,
    duration: 120,
    statusCode: 200,
  });
  recordDelivery(s.fake.state, id, {
    outcome: 'FAILURE',
    event: 'repo:refs_changed',
    start: t0 + 60_000,
    duration: 80,
    statusCode: 500,
  });
  recordDelivery(s.fake.state, id, {
    outcome: 'SUCCESS',
    event: 'repo:refs_changed',
    start: t0 + 120_000,
    duration: 90,
    statusCode: 200,
  });
  const d = (await run(['webhook', 'stats', String(id), '--json'])).json().data;
  assertSchema('webhook-stats', d);
  assert.equal([d.successes, d.failures, d.errors], [2, 1, 0]);
  assert.equal(d.lastFailure, {
    event: 'repo:refs_changed',
    at: '2023-11-14T22:14:20.000Z',
    durationMs: 80,
    result: 'HTTP 500',
  });
  const human = await run(['webhook', 'stats', String(id)]);
  assert.match(human.stdout, `Webhook ${id} on PROJ/api: 2 succeeded, 1 failed, 0 errors\n`);
  const denied = await run(['webhook', 'stats', String(id), '--json'], 'bob');
  assert.is(denied.code, 3);
  assert.is((await run(['webhook', 'stats', '999'])).code, 4);
});

test('project webhook stats: the same for a project webhook', async () => {
  const created = (
    await run([
      'project',
      'webhook',
      'create',
      'PROJ',
      '--name',
      'audit',
      '--url',
      'https://audit.example.test',
      '--events',
      'repo:refs_changed',
      '--json',
    ])
  ).json().data;
  const id = created.id;
  const d = (await run(['project', 'webhook', 'stats', 'PROJ', String(id), '--json'])).json().data;
  assert.equal([d.scope, d.successes, d.lastSuccess], ['PROJ', 0, undefined]);
});

test.run();
