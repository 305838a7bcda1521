import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc paging (5,000 repositories)');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake('large');
});
test.after(async () => {
  await fake.stop();
});
const run = (argv: string[]) => {
  const w = createWorld({ env: { BBDC_URL: fake.url, BBDC_TOKEN: credentials.alice.token } });
  return w.run(argv).finally(() => w.dispose());
};
const pageRequests = (from: number) =>
  fake.requests.slice(from).map((q) => [q.path, Number(q.query.get('start')), Number(q.query.get('limit'))]);

test('--limit 1234 asks for pages of at most 1,000 and returns exactly 1,234', async () => {
  const n = fake.requests.length;
  const r = await run(['repo', 'list', '--project', 'BIG', '--limit', '1234', '--json']);
  assert.is(r.code, 0, r.stderr);
  const data = r.json().data;
  assert.is(data.repositories.length, 1234);
  assert.is(data.count, 1234);
  assert.is(data.truncated, true);
  assert.is(data.repositories[1233].slug, 'repo-1234');
  assert.equal(pageRequests(n), [
    ['/rest/api/latest/projects/BIG/repos', 0, 1000],
    ['/rest/api/latest/projects/BIG/repos', 1000, 234],
  ]);
});

test('--limit 5000 takes five pages of 1,000 (the bench:cli repo-list goal)', async () => {
  const n = fake.requests.length;
  const r = await run(['repo', 'list', '--limit', '5000', '--json']);
  assert.equal([r.json().data.count, r.json().data.repositories[4999].slug], [5000, 'repo-4996']);
  assert.equal(pageRequests(n), [
    ['/rest/api/latest/repos', 0, 1000],
    ['/rest/api/latest/repos', 1000, 1000],
    ['/rest/api/latest/repos', 2000, 1000],
    ['/rest/api/latest/repos', 3000, 1000],
    ['/rest/api/latest/repos', 4000, 1000],
  ]);
});

test('the limit caps the total across projects; the default is 100 in one request', async () => {
  const n = fake.requests.length;
  const r = await run(['repo', 'list', '--json']);
  assert.is(r.json().data.count, 100);
  assert.equal(pageRequests(n), [['/rest/api/latest/repos', 0, 100]]);
});

test('a limit above the total stops at the last page without asking for more', async () => {
  const n = fake.requests.length;
  const r = await run(['repo', 'list', '--limit', '6000', '--json']);
  assert.is(r.json().data.count, 5004);
  assert.is(r.json().data.truncated, false);
  assert.equal(
    pageRequests(n).map((p) => p[2]),
    [1000, 1000, 1000, 1000, 1000, 1000],
  );
});

test('--limit must be a positive number', async () => {
  const r = await run(['repo', 'list', '--limit', 'lots']);
  assert.is(r.code, 2);
  assert.match(r.stderr, '--limit "lots" must be a whole number');
});

// A server whose nextPageStart does not advance used to be asked for the same page ~4,900 times in two minutes.
for (const [label, next] of [
  ['stays at the same start', (start: number) => start],
  ['goes back to 0', () => 0],
] as const) {
  test(`a page whose nextPageStart ${label} stops the loop with an error naming the endpoint`, async () => {
    const stuck = await withFake('small', {
      routes: {
        getRepositories_1: {
          auth: 'optional',
          handle: ({ query }) => {
            const start = Number(query.get('start') ?? 0);
            return {
              status: 200,
              body: {
                values: [{ id: start + 1, slug: `r${start}`, name: `r${start}`, project: { key: 'P' } }],
                size: 1,
                limit: 1,
                start,
                isLastPage: false,
                nextPageStart: next(start),
              },
            };
          },
        },
      },
    });
    const w = createWorld({ env: { BBDC_URL: stuck.url, BBDC_TOKEN: credentials.alice.token } });
    try {
      const r = await w.run(['repo', 'list', '--limit', '1000']);
      assert.is(r.code, 1, r.stderr);
      assert.match(r.stderr, 'GET /rest/api/latest/repos answered a page at start');
      assert.match(r.stderr, 'paging would never end');
      assert.not.match(r.stderr, 'unexpected');
      assert.ok(stuck.requests.length <= 2, `${stuck.requests.length} requests`);
    } finally {
      w.dispose();
      await stuck.stop();
    }
  });
}

// repo browse file and tree read pages wrapped in their answer (lines; children) through the same loop and guard.
for (const [argv, wrap] of [
  [['repo', 'browse', 'file', 'README.md'], (start: number) => ({ lines: [{ text: `line ${start}` }] })],
  [
    ['repo', 'browse', 'tree'],
    (start: number) => ({ children: { values: [{ path: { toString: `f${start}` }, type: 'FILE' }] } }),
  ],
] as const) {
  test(`${argv.join(' ')}: a page that does not advance stops with the endpoint named`, async () => {
    const page = (start: number, body: Record<string, unknown>) => {
      const inner = (body.children ?? body) as Record<string, unknown>;
      Object.assign(inner, { size: 1, limit: 1, start, isLastPage: false, nextPageStart: start });
      return { status: 200, body };
    };
    const route = {
      auth: 'optional' as const,
      handle: ({ query }: { query: URLSearchParams }) =>
        page(Number(query.get('start') ?? 0), wrap(Number(query.get('start') ?? 0))),
    };
    const stuck = await withFake('small', { routes: { getContent_1: route, getContent: route } });
    const w = createWorld({ env: { BBDC_URL: stuck.url, BBDC_TOKEN: credentials.alice.token } });
    try {
      const r = await w.run([...argv, '-R', 'PROJ/api']);
      assert.is(r.code, 1, r.stderr);
      assert.match(
        r.stderr,
        /GET \/rest\/api\/latest\/projects\/PROJ\/repos\/api\/browse.* answered a page at start 0/,
      );
      assert.match(r.stderr, 'paging would never end');
      assert.ok(stuck.requests.length <= 2, `${stuck.requests.length} requests`);
    } finally {
      w.dispose();
      await stuck.stop();
    }
  });
}

test.run();
