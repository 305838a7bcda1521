import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseRemoteUrl } from '../../src/bbdc/config/remote-url.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';
import { createWorld, memoryKeyring, repoWithRemotes } from './helpers/world.ts';

const test = suite('bbdc git context');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
});

test('remote forms parse to host, project and slug', () => {
  const cases: [string, string, string, string][] = [
    ['https://bb.example.com/scm/proj/api.git', 'bb.example.com', 'PROJ', 'api'],
    ['https://alice@bb.example.com:8443/bitbucket/scm/proj/api.git', 'bb.example.com:8443', 'PROJ', 'api'],
    ['ssh://git@bb.example.com:7999/proj/api.git', 'bb.example.com:7999', 'PROJ', 'api'],
    ['ssh://git@bb.example.com:7999/scm/proj/api.git', 'bb.example.com:7999', 'PROJ', 'api'],
    ['git@bb.example.com:proj/api.git', 'bb.example.com', 'PROJ', 'api'],
    ['https://bb.example.com/scm/~alice/dotfiles.git', 'bb.example.com', '~alice', 'dotfiles'],
    ['ssh://git@bb.example.com:7999/~Alice/dotfiles.git', 'bb.example.com:7999', '~alice', 'dotfiles'],
  ];
  for (const [url, host, project, slug] of cases) {
    const parsed = parseRemoteUrl(url);
    assert.equal([parsed?.host, parsed?.project, parsed?.slug], [host, project, slug], url);
  }
  assert.is(parseRemoteUrl('https://github.com/owner/repo.git'), undefined, 'not a Bitbucket /scm/ URL');
  assert.is(parseRemoteUrl('https://bb.example.com/bitbucket/scm/proj/api.git')?.contextPath, '/bitbucket');
});

async function loggedIn() {
  const w = createWorld({ keyring: memoryKeyring() });
  const r = await w.run(['auth', 'login', fake.url, '--token', credentials.alice.token]);
  assert.is(r.code, 0, r.stderr);
  return w;
}

test('each remote form resolves the repository on the stored host (https, ssh alias, scp alias, ~user)', async () => {
  const w = await loggedIn();
  const forms: Record<string, string> = {
    https: `${fake.url}/scm/proj/api.git`,
    ssh: 'ssh://git@git.example.test:7999/proj/api.git',
    'ssh-scm': 'ssh://git@git.example.test:7999/scm/proj/api.git',
    scp: 'git@git.example.test:proj/api.git',
    personal: `${fake.url}/scm/~alice/dotfiles.git`,
  };
  for (const [name, url] of Object.entries(forms)) {
    const cwd = repoWithRemotes(w.dir, name, { origin: url });
    const r = await w.run(['browse', '--no-browser'], { cwd });
    assert.is(r.code, 0, `${name}: ${r.stderr}`);
    const expected =
      name === 'personal'
        ? `${fake.url}/users/alice/repos/dotfiles/browse`
        : `${fake.url}/projects/PROJ/repos/api/browse`;
    assert.is(r.stdout.trim(), expected, name);
    assert.match(r.stderr, `from git remote "origin"`);
    assert.is(r.stderr.trim().split('\n').length, 1, 'one stderr line names the remote');
  }
  w.dispose();
});

test('the host is inferred from the remote for server commands; --json prints nothing extra', async () => {
  const w = await loggedIn();
  await w.run(['auth', 'server', 'use', fake.url]);
  const cwd = repoWithRemotes(w.dir, 'infer', { origin: 'git@git.example.test:proj/api.git' });
  const r = await w.run(['repo', 'list', '--project', 'PROJ', '--json'], { cwd });
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stderr, '');
  assert.is(r.json().data.count, 2);
  w.dispose();
});

test('remotes pointing at different repositories are a validation error listing them', async () => {
  const w = await loggedIn();
  const cwd = repoWithRemotes(w.dir, 'forked', {
    origin: `${fake.url}/scm/~alice/api.git`,
    upstream: 'ssh://git@git.example.test:7999/proj/api.git',
  });
  const r = await w.run(['browse', '--no-browser'], { cwd });
  assert.is(r.code, 2);
  assert.match(r.stderr, 'the git remotes point at different repositories');
  assert.match(r.stderr, 'origin: ~alice/api');
  assert.match(r.stderr, 'upstream: PROJ/api');
  const chosen = await w.run(['browse', '--no-browser', '-R', 'PROJ/api'], { cwd });
  assert.is(chosen.stdout.trim(), `${fake.url}/projects/PROJ/repos/api/browse`);
  w.dispose();
});

test('remotes on unknown hosts are ignored; an unmatched ssh host needs an alias', async () => {
  const w = await loggedIn();
  const cwd = repoWithRemotes(w.dir, 'elsewhere', {
    origin: 'ssh://git@other.example.test:7999/proj/api.git',
  });
  const r = await w.run(['browse', '--no-browser'], { cwd });
  assert.is(r.code, 2);
  assert.match(r.stderr, 'no repository chosen');
  await w.run(['auth', 'alias', 'add', 'other.example.test:7999']);
  const again = await w.run(['browse', '--no-browser'], { cwd });
  assert.is(again.stdout.trim(), `${fake.url}/projects/PROJ/repos/api/browse`);
  w.dispose();
});

test('precedence: -R flag over BBDC_PROJECT/BBDC_REPO env over git', async () => {
  const w = await loggedIn();
  const cwd = repoWithRemotes(w.dir, 'prec', { origin: `${fake.url}/scm/proj/api.git` });
  const env = { BBDC_PROJECT: 'OPS', BBDC_REPO: 'tools', BBDC_URL: fake.url };
  const fromEnv = await w.run(['browse', '--no-browser'], { cwd, env });
  assert.is(fromEnv.stdout.trim(), `${fake.url}/projects/OPS/repos/tools/browse`);
  assert.is(fromEnv.stderr, '', 'no remote line when git was not used');
  const hostFromGit = await w.run(['browse', '--no-browser'], { cwd, env: { ...env, BBDC_URL: undefined } });
  assert.is(hostFromGit.stdout.trim(), `${fake.url}/projects/OPS/repos/tools/browse`);
  assert.match(
    hostFromGit.stderr,
    'from git remote "origin"',
    'the host came from git, so the remote is named',
  );
  const fromFlag = await w.run(['browse', '--no-browser', '-R', 'PROJ/web'], { cwd, env });
  assert.is(fromFlag.stdout.trim(), `${fake.url}/projects/PROJ/repos/web/browse`);
  w.dispose();
});

test.run();
