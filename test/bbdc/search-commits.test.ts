import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { page } from '../fake-bitbucket/route-types.ts';
import { type FakeBitbucket, startFakeBitbucket } from '../fake-bitbucket/server.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { createWorld } from './helpers/world.ts';

// A history of 250 commits, newest first, served by a getCommits route local to this suite.
const history = Array.from({ length: 250 }, (_, i) => {
  const n = 250 - i;
  const fix = n % 50 === 0;
  return {
    id: n.toString(16).padStart(40, '0'),
    displayId: n.toString(16).padStart(11, '0'),
    message: fix ? `Fix login timeout (#${n})\n\nLonger body` : `Change ${n}`,
    author:
      n % 2
        ? { name: 'bob', emailAddress: 'bob@example.test' }
        : { name: 'alice', displayName: 'Alice Admin' },
    authorTimestamp: 1_700_000_000_000 + n * 60_000,
  };
});

const test = suite('bbdc search commits');
let fake: FakeBitbucket;
test.before(async () => {
  fake = await startFakeBitbucket({
    routes: { getCommits: { auth: 'optional', handle: (ctx) => page(history, ctx.query) } },
  });
});
test.after(async () => {
  await fake.close();
  assert.equal(fake.violations, []);
});
const run = async (argv: string[]) => {
  const w = createWorld({ env: { BBDC_URL: fake.url, BBDC_TOKEN: credentials.alice.token } });
  try {
    return await w.run(argv);
  } finally {
    w.dispose();
  }
};
const commitRequests = (from: number) =>
  fake.requests.slice(from).map((q) => Object.fromEntries(q.query.entries()));

test('search commits reads the history and keeps the matching messages, newest first', async () => {
  const n = fake.requests.length;
  const human = await run(['search', 'commits', 'fix login', '-R', 'PROJ/api']);
  assert.is(human.code, 0, human.stderr);
  assert.equal(human.stdout.split('\n').filter(Boolean).length, 5);
  assert.match(human.stdout, /^000000000fa\t2023-11-1\d\tAlice Admin\tFix login timeout \(#250\)\n/);
  const json = (
    await run(['search', 'commits', 'FIX LOGIN', '-R', 'PROJ/api', '--limit', '2', '--json'])
  ).json().data;
  assert.equal(
    json.commits.map((c: { summary: string }) => c.summary),
    ['Fix login timeout (#250)', 'Fix login timeout (#200)'],
  );
  assert.equal([json.count, json.truncated, json.repository, json.query], [2, true, 'PROJ/api', 'FIX LOGIN']);
  assert.equal(commitRequests(n)[0], { start: '0', limit: '1000' });
});

test('--author, --path, --since, --until and --merges reach the server; --scan caps the commits read', async () => {
  const n = fake.requests.length;
  const r = await run([
    'search',
    'commits',
    '--author',
    'bob@example',
    '--path',
    'src/',
    '--since',
    'v1.0',
    '--until',
    'main',
    '--merges',
    'exclude',
    '--scan',
    '10',
    '-R',
    'PROJ/api',
    '--json',
  ]);
  assert.is(r.code, 0, r.stdout);
  const d = r.json().data;
  assert.equal([d.scanned, d.count, d.truncated], [10, 5, true]);
  assert.ok(d.commits.every((c: { author: string }) => c.author === 'bob'));
  assert.equal(commitRequests(n), [
    { path: 'src/', since: 'v1.0', until: 'main', merges: 'exclude', start: '0', limit: '10' },
  ]);
  const none = await run(['search', 'commits', 'no such words', '-R', 'PROJ/api']);
  assert.match(none.stderr, 'No commits among the 250 read match.');
  const empty = await run(['search', 'commits', '-R', 'PROJ/api']);
  assert.is(empty.code, 2);
  assert.match(empty.stderr, 'give some text to look for in commit messages, or --author NAME');
});

test.run();
