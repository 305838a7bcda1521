// Answers the 9.4 document allows (every field optional, a single change where servers send a page, a webhook
// without id) are read without crashing; a change the server accepted is reported as made even when its answer
// cannot be read.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Route, RouteTable } from '../fake-bitbucket/route-types.ts';
import { hookWebhookRoutes } from '../fake-bitbucket/routes/hooks-webhooks.ts';
import { pullRequestCommentRoutes } from '../fake-bitbucket/routes/pull-request-comments.ts';
import { pullRequestRoutes } from '../fake-bitbucket/routes/pull-requests.ts';
import { withFake } from './helpers/fake.ts';
import { fakePr, prWorld } from './helpers/pr.ts';

const test = suite('bbdc tolerant readers and honest outcomes');

/** A route that answers as `route` does, with the body changed by `edit`. */
const editing = (route: Route, edit: (body: any) => unknown): Route => ({
  auth: route.auth,
  handle: (ctx) => {
    const result = route.handle(ctx);
    return result.status < 300 ? { ...result, body: edit(result.body) } : result;
  },
});

async function scene(routes: RouteTable, argv: string[], user: 'alice' | 'bob' = 'alice') {
  const fake = await withFake('small', { routes });
  const w = prWorld(fake, user);
  try {
    return { fake, result: await w.run(argv) };
  } finally {
    w.dispose();
    await fake.stop();
  }
}

const withoutAuthor = (pr: any) => {
  const { author: _, ...rest } = pr;
  return rest;
};

test('a pull request without author (not required by the document) is read by get, list and update', async () => {
  const routes = {
    get_3: editing(pullRequestRoutes.get_3, withoutAuthor),
    update: editing(pullRequestRoutes.update, withoutAuthor),
    getPullRequests_1: editing(pullRequestRoutes.getPullRequests_1, (page) => ({
      ...page,
      values: page.values.map(withoutAuthor),
    })),
  };
  for (const argv of [
    ['pr', 'get', '1'],
    ['pr', 'get', '1', '--json'],
    ['pr', 'list'],
    ['pr', 'update', '1', '--title', 'Renamed', '--json'],
  ]) {
    const { result } = await scene(routes, argv);
    assert.is(result.code, 0, `${argv.join(' ')}: ${result.stderr}`);
    assert.not.match(result.stderr, 'TypeError');
  }
  const { result } = await scene(routes, ['pr', 'get', '1']);
  assert.match(result.stdout, 'unknown author wants to merge');
});

test('an answer bbdc cannot read after the server accepted the change: reported as done, exit 0, with a warning', async () => {
  const broken = {
    update: editing(pullRequestRoutes.update, (pr) => ({ ...pr, toRef: null, fromRef: null })),
  };
  const fake = await withFake('small', { routes: broken });
  try {
    for (const json of [false, true]) {
      const w = prWorld(fake);
      const r = await w.run(['pr', 'update', '1', '--title', `Renamed ${json}`, ...(json ? ['--json'] : [])]);
      w.dispose();
      assert.is(r.code, 0, r.stderr);
      assert.is(fakePr(fake, 1).title, `Renamed ${json}`);
      assert.match(
        r.stderr,
        'warning: the change was made (PUT /rest/api/latest/projects/PROJ/repos/api/pull-requests/1 answered 200)',
      );
      assert.not.match(r.stderr, 'unexpected');
      if (json) {
        const out = r.json();
        assert.is(out.data, null);
        assert.match(out.meta.warnings[0], 'the change was made');
      }
    }
  } finally {
    await fake.stop();
  }
});

test('pr files and pr diff read a single change (the document shape) and paths given only as components', async () => {
  const single = {
    streamChanges_1: editing(pullRequestCommentRoutes.streamChanges_1, (page) => {
      const { toString: _, ...path } = page.values[0].path;
      return { ...page.values[0], path, srcPath: undefined };
    }),
  };
  const files = await scene(single, ['pr', 'files', '1', '--json']);
  assert.is(files.result.code, 0, files.result.stderr);
  const listed = files.result.json().data.files;
  assert.is(listed.length, 1);
  const paged = (await scene({}, ['pr', 'files', '1', '--json'])).result.json().data.files;
  assert.is(listed[0].path, paged[0].path);
  assert.ok(paged[0].path.includes('/'), 'a nested path, so components are joined');
  const human = await scene(single, ['pr', 'files', '1']);
  assert.not.match(human.result.stdout, 'native code');
  const diff = await scene(single, ['pr', 'diff', '1', '--json']);
  assert.is(diff.result.code, 0, diff.result.stderr);
  assert.equal(diff.result.json().data.files[0].path, listed[0].path);
});

test('webhook get without an id in the answer shows the id asked for, never "undefined"', async () => {
  const routes = {
    getWebhook_1: editing(hookWebhookRoutes.getWebhook_1, (hook) => {
      const { id: _, ...rest } = hook;
      return rest;
    }),
  };
  const { result } = await scene(routes, ['webhook', 'get', '1']);
  assert.is(result.code, 0, result.stderr);
  assert.match(result.stdout, /id\s+1/);
  assert.not.match(result.stdout, 'undefined');
});

test('a time outside the Date range is shown as the raw number with a warning, not "Invalid time value"', async () => {
  const routes = { get_3: editing(pullRequestRoutes.get_3, (pr) => ({ ...pr, createdDate: 9e15 })) };
  for (const json of [false, true]) {
    const { result } = await scene(routes, ['pr', 'get', '1', ...(json ? ['--json'] : [])]);
    assert.is(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      'warning: pull request 1 createdDate 9000000000000000 is not a time JavaScript can represent',
    );
    if (json) {
      assert.is(result.json().data.createdDate, '9000000000000000');
      assert.match(result.json().meta.warnings[0], 'createdDate 9000000000000000');
    }
  }
});

test.run();
