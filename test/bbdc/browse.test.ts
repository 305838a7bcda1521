import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc browse');
const host = 'https://bb.example.com';

test('targets: repository, pull request, commit, file with branch and line, personal repository', async () => {
  const w = createWorld();
  const url = async (...argv: string[]) => (await w.run(['browse', '--no-browser', ...argv])).stdout.trim();
  assert.is(await url('-R', 'bb.example.com/PROJ/api'), `${host}/projects/PROJ/repos/api/browse`);
  assert.is(
    await url('-R', 'bb.example.com/PROJ/api', '42'),
    `${host}/projects/PROJ/repos/api/pull-requests/42/overview`,
  );
  assert.is(
    await url('-R', 'bb.example.com/PROJ/api', 'ABCDEF1234567'),
    `${host}/projects/PROJ/repos/api/commits/abcdef1234567`,
  );
  assert.is(
    await url('-R', 'bb.example.com/PROJ/api', 'src/main file.ts:12', '--branch', 'feature/x'),
    `${host}/projects/PROJ/repos/api/browse/src/main%20file.ts?at=refs%2Fheads%2Ffeature%2Fx#12`,
  );
  assert.is(await url('-R', 'bb.example.com/~alice/dotfiles'), `${host}/users/alice/repos/dotfiles/browse`);
  w.dispose();
});

test('without --no-browser the page is opened and a notice goes to stderr', async () => {
  const w = createWorld();
  const r = await w.run(['browse', '-R', 'bb.example.com/PROJ/api', '7']);
  assert.is(r.code, 0);
  assert.equal(w.opened, [`${host}/projects/PROJ/repos/api/pull-requests/7/overview`]);
  assert.is(r.stdout, '');
  assert.match(r.stderr, 'Opening');
  const j = await w.run(['browse', '-R', 'bb.example.com/PROJ/api', '--json']);
  assert.equal(j.json().data, { url: `${host}/projects/PROJ/repos/api/browse`, opened: false });
  assert.is(w.opened.length, 1, '--json does not open a browser');
  w.dispose();
});

test('a malformed -R is a usage error showing the expected form', async () => {
  const w = createWorld();
  const r = await w.run(['browse', '-R', 'justone']);
  assert.is(r.code, 2);
  assert.match(r.stderr, '-R/--repo "justone" must be [HOST/]PROJECT/slug');
  w.dispose();
});

test.run();
