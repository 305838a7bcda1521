// `--json` prints exactly one JSON document, also when a streamed list fails after its first page was written.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createAjv, formatSchemaErrors } from '../../src/core/schema.ts';
import type { InjectedFailure } from '../fake-bitbucket/server.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc --json: one document whatever fails');
const envelope = createAjv().compile(
  JSON.parse(readFileSync(join(import.meta.dirname, '../../schemas/cli/envelope.schema.json'), 'utf8')),
);
type Doc = {
  data?: { repositories: { slug: string }[] };
  error: { kind: string; message: string; exitCode: number };
  meta: { partial?: boolean };
};
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake('large');
});
test.after(async () => {
  await fake.stop();
});

/** `repo list` of 3,000 repositories (three pages) with `failure` injected from page 2 on. */
async function listFailingAfterPageOne(failure: InjectedFailure) {
  const w = createWorld({ env: { BBDC_URL: fake.url, BBDC_TOKEN: credentials.alice.token } });
  const before = fake.requests.length;
  fake.inject({ ...failure, method: 'GET', after: 1 });
  const r = await w.run(['repo', 'list', '--project', 'BIG', '--limit', '3000', '--json']);
  w.dispose();
  return { r, requests: fake.requests.length - before };
}

function assertOnePartialDocument(r: { code: number; stdout: string }, kind: string) {
  // One document: JSON.parse reads the whole of stdout, which would fail on a second value after the first.
  const doc: Doc = JSON.parse(r.stdout);
  assert.ok(envelope(doc), formatSchemaErrors(envelope.errors).join('; '));
  assert.is(doc.error.kind, kind);
  assert.is(doc.meta.partial, true);
  assert.is(doc.error.exitCode, r.code);
  assert.ok(r.code !== 0, 'the exit code says the list is incomplete');
  const got = doc.data?.repositories ?? [];
  assert.ok(got.length >= 1000, `page 1 kept: ${got.length} repositories`);
  assert.ok(got.length < 3000, 'not the whole list');
  assert.is(r.stdout.trimEnd().split('\n').length, 1, 'one line');
}

test('page 2 answering 500 ends as one envelope with the first page as data and the error', async () => {
  const { r, requests } = await listFailingAfterPageOne({ status: 500, times: 4 });
  assertOnePartialDocument(r, 'transient');
  assert.is(requests, 5, 'page 1, then page 2 with its three retries');
  assert.match(JSON.parse(r.stdout).error.message, /500|server/i);
});

test('a connection dropped in the middle of a page ends as one envelope too', async () => {
  const { r, requests } = await listFailingAfterPageOne({ status: 200, times: 4, drop: true });
  assertOnePartialDocument(r, 'transient');
  assert.is(requests, 5, 'page 1, then page 2 dropped and asked for again three times');
});

test('a list that fails before any output is a plain error envelope, without partial data', async () => {
  fake.inject({ status: 500, times: 4, method: 'GET' });
  const w = createWorld({ env: { BBDC_URL: fake.url, BBDC_TOKEN: credentials.alice.token } });
  const r = await w.run(['repo', 'list', '--project', 'BIG', '--json']);
  w.dispose();
  const doc: Doc = JSON.parse(r.stdout);
  assert.ok(envelope(doc), formatSchemaErrors(envelope.errors).join('; '));
  assert.equal([doc.data, doc.meta.partial, doc.error.exitCode], [undefined, undefined, r.code]);
});

test('the envelope schema refuses data with an error unless meta says the data is partial', () => {
  const error = { kind: 'transient', message: 'x', exitCode: 5 };
  assert.not.ok(envelope({ version: 'v2', data: [], error, meta: { contract: 'bbdc.machine' } }));
  assert.ok(envelope({ version: 'v2', data: [], error, meta: { contract: 'bbdc.machine', partial: true } }));
});

test.run();
