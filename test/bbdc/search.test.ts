import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc search');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
});
const run = async (argv: string[]) => {
  const w = createWorld({ env: { BBDC_URL: fake.url, BBDC_TOKEN: credentials.alice.token } });
  try {
    return await w.run(argv);
  } finally {
    w.dispose();
  }
};
const last = (suffix: string) => fake.requests.findLast((q) => q.path.endsWith(suffix))!;

test('search repos sends the name, project, visibility and archive filters and prints a table', async () => {
  const human = await run(['search', 'repos', 'WE']);
  assert.is(human.code, 0, human.stderr);
  assert.is(human.stdout, 'PROJ/web\tweb\tprivate\n');
  assert.equal(
    [...last('/rest/api/latest/repos').query.entries()].filter(([k]) => k !== 'start' && k !== 'limit'),
    [
      ['name', 'WE'],
      ['archived', 'ACTIVE'],
    ],
  );
  const json = (
    await run(['search', 'repos', '--project', 'ops', '--visibility', 'public', '--json'])
  ).json();
  assert.equal(
    json.data.repositories.map((r: { slug: string }) => r.slug),
    ['tools'],
  );
  assert.equal(json.data.query, undefined);
  const q = last('/rest/api/latest/repos').query;
  assert.equal([q.get('projectkey'), q.get('visibility')], ['OPS', 'public']);
  const none = await run(['search', 'repos', 'nothing-like-this']);
  assert.equal([none.code, none.stdout], [0, '']);
  assert.match(none.stderr, 'No repositories match "nothing-like-this".');
});

test('search prs filters by text, author, state and target branch on the repository list', async () => {
  const human = await run(['search', 'prs', 'LOGIN', '-R', 'PROJ/api']);
  assert.is(human.code, 0, human.stderr);
  assert.is(human.stdout, '#1\tAdd login page\tbob\tfeature/login → main\tOPEN\n');
  const q = last('/pull-requests').query;
  assert.equal([q.get('filterText'), q.get('state')], ['LOGIN', 'ALL']);
  const byBob = (
    await run(['search', 'prs', '--author', 'bob', '--state', 'declined', '-R', 'PROJ/api', '--json'])
  ).json().data;
  assert.equal(
    byBob.pullRequests.map((p: { id: number; state: string }) => [p.id, p.state]),
    [[3, 'DECLINED']],
  );
  assert.equal([byBob.repository, byBob.count, byBob.truncated], ['PROJ/api', 1, false]);
  const into = (
    await run(['search', 'prs', '--target', 'main', '--limit', '1', '-R', 'PROJ/api', '--json'])
  ).json().data;
  assert.equal([into.count, into.truncated], [1, true]);
  assert.equal(
    [last('/pull-requests').query.get('at'), last('/pull-requests').query.get('direction')],
    ['refs/heads/main', 'INCOMING'],
  );
});

test('the help of every search command says it is not code search', async () => {
  for (const verb of ['repos', 'commits', 'prs']) {
    const r = await run(['search', verb, '--help']);
    assert.match(r.stdout, 'not code search', verb);
  }
});

test.run();
