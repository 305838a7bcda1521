// pr checkout with real git: the fake serves git's smart HTTP for PROJ/api from a bare repository.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';
import { bareRepo, gitHttpBackend } from './helpers/git-remote.ts';
import { assertPlan, assertSchema, fakePr } from './helpers/pr.ts';
import { createWorld, git } from './helpers/world.ts';

const test = suite('bbdc pr checkout');
const root = mkdtempSync(join(tmpdir(), 'bbdc-checkout-'));
const bearer = `Bearer ${credentials.alice.token}`;
const id = ['-c', 'user.name=Test', '-c', 'user.email=test@example.test'];
let fake: Awaited<ReturnType<typeof withFake>>;
let http: ReturnType<typeof gitHttpBackend>;
let feature = '';
let local = '';

test.before(async () => {
  bareRepo(root, 'proj/api.git', { 'README.md': '# api\n' });
  const work = join(root, 'work');
  git(root, 'clone', '-q', join(root, 'proj/api.git'), work);
  git(work, 'checkout', '-q', '-b', 'feature/login');
  writeFileSync(join(work, 'login.ts'), 'export const login = true;\n');
  git(work, 'add', '.');
  git(work, ...id, 'commit', '-q', '-m', 'Add login');
  git(work, 'push', '-q', 'origin', 'feature/login');
  feature = git(work, 'rev-parse', 'HEAD').trim();
  http = gitHttpBackend(root, (h) => h === bearer);
  fake = await withFake('small', { git: http.handler });
  fakePr(fake, 1).fromCommit = feature;
  local = join(root, 'local');
  git(root, 'clone', '-q', join(root, 'proj/api.git'), local);
  git(local, 'remote', 'set-url', 'origin', `${fake.url}/scm/proj/api.git`);
});
test.after(async () => {
  await fake.stop();
  rmSync(root, { recursive: true, force: true });
});
const run = async (argv: string[]) => {
  const w = createWorld({ cwd: local, env: { BBDC_URL: fake.url, BBDC_TOKEN: credentials.alice.token } });
  try {
    return await w.run(argv);
  } finally {
    w.dispose();
  }
};

test('the dry run names the fetch and the branch and changes nothing', async () => {
  const r = await run(['pr', 'checkout', '1', '--dry-run', '--json']);
  assert.is(r.code, 0, r.stderr);
  const plan = r.json().data;
  assertPlan(plan);
  assert.equal([plan.predictedAction, plan.target.id], ['create', 'feature/login']);
  assert.match(
    plan.action.description,
    'git fetch origin +refs/heads/feature/login:refs/remotes/origin/feature/login',
  );
  assert.is(git(local, 'branch', '--list', 'feature/login'), '');
});

test("fetches the source branch with the token in git's environment only, and tracks it", async () => {
  const before = http.authorizations.length;
  const r = await run(['pr', 'checkout', '1', '--json']);
  assert.is(r.code, 0, r.stderr);
  const d = r.json().data;
  assertSchema('pr-checkout', d);
  assert.equal(
    [d.branch, d.commit, d.action, d.upstream, d.fork],
    ['feature/login', feature, 'created', 'origin refs/heads/feature/login', false],
  );
  assert.is(git(local, 'rev-parse', '--abbrev-ref', 'HEAD').trim(), 'feature/login');
  assert.is(git(local, 'rev-parse', '--abbrev-ref', '@{upstream}').trim(), 'origin/feature/login');
  assert.ok(http.authorizations.slice(before).includes(bearer), 'git sent the token as a header');
  const config = readFileSync(join(local, '.git', 'config'), 'utf8');
  assert.not.match(config, credentials.alice.token);
  assert.not.match(git(local, 'remote', 'get-url', 'origin'), credentials.alice.token);
  const again = await run(['pr', 'checkout', '1']);
  assert.match(again.stdout, 'Already up to date: feature/login');
});

test('a diverged local branch is refused (exit 5) unless --force resets it', async () => {
  writeFileSync(join(local, 'local.txt'), 'mine\n');
  git(local, 'add', '.');
  git(local, ...id, 'commit', '-q', '-m', 'Local work');
  const refused = await run(['pr', 'checkout', '1', '--json']);
  assert.equal([refused.code, refused.json().error.kind], [5, 'conflict']);
  assert.match(refused.json().error.message, 'has diverged from pull request #1');
  const forced = (await run(['pr', 'checkout', '1', '--force', '--json'])).json().data;
  assert.equal([forced.action, forced.commit], ['reset', feature]);
  assert.is(git(local, 'rev-parse', 'HEAD').trim(), feature);
});

test('outside a clone of the repository it says where to run it (exit 2)', async () => {
  const w = createWorld({ env: { BBDC_URL: fake.url, BBDC_TOKEN: credentials.alice.token } });
  const r = await w.run(['pr', 'checkout', '1', '-R', 'PROJ/api']);
  w.dispose();
  assert.equal([r.code, r.stderr.includes('pr checkout works in a clone of PROJ/api')], [2, true]);
});

test.run();
