// bbdc as git's credential helper: real `git fetch` and `git push` in a clone made by `bbdc repo clone`, with git
// running the real bbdc (bin/bbdc.js) for the token; the token never lands in git config, a remote URL or argv.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  formatCredential,
  hostForRequest,
  parseCredentialRequest,
} from '../../src/bbdc/clone/credential-protocol.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { startConnectProxy } from './helpers/connect-proxy.ts';
import { withFake } from './helpers/fake.ts';
import { bareRepo, gitHttpBackend } from './helpers/git-remote.ts';
import { bbdcOnPath, createWorld, git } from './helpers/world.ts';

const test = suite('bbdc auth setup-git and git-credential');
const token = credentials.alice.token;
// Bitbucket takes an HTTP access token as the password of its owner (git's credential helpers speak Basic).
const tokenAsPassword = `Basic ${Buffer.from(`alice:${token}`).toString('base64')}`;
let fake: Awaited<ReturnType<typeof withFake>>;
let http: ReturnType<typeof gitHttpBackend>;
let root: string;

/** Runs git without blocking: the fake server answering it lives in this process. */
function gitAsync(cwd: string, env: NodeJS.ProcessEnv, args: string[]) {
  return new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('git', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status: status ?? 1, stdout, stderr }));
  });
}

test.before(async () => {
  root = mkdtempSync(join(tmpdir(), 'bbdc-credential-remotes-'));
  bareRepo(root, 'proj/api.git', { 'README.md': '# api\n' });
  http = gitHttpBackend(root, (h) => h === `Bearer ${token}` || h === tokenAsPassword);
  fake = await withFake('small', { git: http.handler, sshHost: '127.0.0.1:1' });
});
test.after(async () => {
  await fake.stop();
  rmSync(root, { recursive: true, force: true });
});

test('the protocol: attributes up to a blank line; an answer only for a configured server', () => {
  const request = parseCredentialRequest(
    'protocol=https\nhost=git.example.com:8443\nwwwauth[]=Basic\n\nignored=1\n',
  );
  assert.equal(request, { protocol: 'https', host: 'git.example.com:8443' });
  const hosts = [{ url: 'http://git.example.com:8443' }, { url: 'https://git.example.com:8443/bitbucket' }];
  assert.is(hostForRequest(hosts, request)?.url, 'https://git.example.com:8443/bitbucket');
  assert.is(hostForRequest(hosts, { protocol: 'https', host: 'other.example.com' }), undefined);
  assert.is(hostForRequest(hosts, { protocol: 'ssh', host: 'git.example.com:8443' }), undefined);
  assert.is(formatCredential('alice', 's3cret'), 'username=alice\npassword=s3cret\n');
  assert.throws(() => formatCredential('alice', 'a\nb'), /newline/);
});

test('after auth setup-git, git fetch and git push work in a bbdc clone; the token is in no config', async () => {
  const w = createWorld();
  const PATH = bbdcOnPath(w.dir);
  w.env.PATH = PATH;
  const deps = {};
  const login = await w.run(['auth', 'login', fake.url, '--token', token, '--no-discover-aliases']);
  assert.is(login.code, 0, login.stderr);
  const clone = await w.run(['repo', 'clone', 'PROJ/api', '--https', '--json'], { deps });
  assert.is(clone.code, 0, clone.stdout + clone.stderr);
  const dir = clone.json().data.directory as string;
  // git as the user runs it: no bbdc header in the environment, never a prompt.
  const env = { PATH, HOME: w.dir, BBDC_CONFIG_DIR: w.configDir, GIT_TERMINAL_PROMPT: '0' };
  const gitRun = (...args: string[]) => gitAsync(dir, env, args);
  const before = await gitRun('fetch', 'origin');
  assert.is(before.status, 128, 'without a helper git cannot authenticate');
  const setup = await w.run(['auth', 'setup-git', '--json'], { deps });
  assert.is(setup.code, 0, setup.stderr);
  const key = `credential.${fake.url}.helper`;
  assert.equal(setup.json().data.hosts, [{ url: fake.url, key }]);
  const plan = await w.run(['auth', 'setup-git', '--dry-run', '--json'], { deps });
  assert.is(plan.json().data.predictedAction, 'no-op', 'running it again changes nothing');
  const seen = http.authorizations.length;
  const fetch = await gitRun('fetch', 'origin');
  assert.is(fetch.status, 0, fetch.stderr);
  writeFileSync(join(dir, 'CHANGES.md'), 'pushed by the credential test\n');
  await gitRun('add', 'CHANGES.md');
  await gitRun('-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'Add changes');
  const push = await gitRun('push', 'origin', 'HEAD:refs/heads/feature/credentials');
  assert.is(push.status, 0, push.stderr);
  assert.is(
    git(join(root, 'proj/api.git'), 'rev-parse', 'feature/credentials').trim(),
    (await gitRun('rev-parse', 'HEAD')).stdout.trim(),
  );
  assert.ok(http.authorizations.slice(seen).includes(tokenAsPassword), 'git sent the token from bbdc');
  for (const file of [join(w.dir, '.gitconfig'), join(dir, '.git', 'config')])
    assert.not.match(readFileSync(file, 'utf8'), token, `${file} holds no token`);
  // The helper names no path of node or of bbdc: an upgrade that moves either keeps git working.
  assert.is(setup.json().data.helper, '!bbdc auth git-credential');
  assert.match(readFileSync(join(w.dir, '.gitconfig'), 'utf8'), 'helper = !bbdc auth git-credential\n');
  assert.not.match(readFileSync(join(w.dir, '.gitconfig'), 'utf8'), process.execPath);
  w.dispose();
});

test('auth setup-git refuses, saying how to fix it, when git would find no bbdc on PATH', async () => {
  const w = createWorld({ env: { PATH: '/usr/bin:/bin' } });
  await w.run(['auth', 'login', fake.url, '--token', token, '--no-discover-aliases']);
  const r = await w.run(['auth', 'setup-git']);
  assert.is(r.code, 2);
  assert.match(r.stderr, 'no bbdc is on your PATH');
  assert.match(r.stderr, 'npm link');
  const plan = await w.run(['auth', 'setup-git', '--dry-run', '--json']);
  assert.equal(plan.json().data.predictedAction, 'conflict');
  assert.not.ok(existsSync(join(w.dir, '.gitconfig')), 'nothing was written');
  w.dispose();
});

test('repo clone over HTTPS goes through the proxy the environment names (git reads the same variables)', async () => {
  const proxy = await startConnectProxy();
  const w = createWorld({ env: { BBDC_URL: fake.url, BBDC_TOKEN: token, http_proxy: proxy.url } });
  try {
    const r = await w.run(['repo', 'clone', 'PROJ/api', 'via-proxy', '--https']);
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.ok(
      proxy.seen.some((s) => s.startsWith(`GET ${fake.url}/scm/proj/api.git/info/refs`)),
      proxy.seen.join('\n'),
    );
  } finally {
    w.dispose();
    await proxy.close();
  }
});

test('git-credential answers nothing for other hosts, ignores store and erase, and --json never shows the secret', async () => {
  const w = createWorld({ stdin: `protocol=https\nhost=elsewhere.example.com\n\n` });
  await w.run(['auth', 'login', fake.url, '--token', token, '--no-discover-aliases']);
  const other = await w.run(['auth', 'git-credential', 'get']);
  assert.equal([other.code, other.stdout], [0, '']);
  const port = new URL(fake.url).host;
  const mine = createWorld({ stdin: `protocol=http\nhost=${port}\n\n` });
  await mine.run(['auth', 'login', fake.url, '--token', token, '--no-discover-aliases']);
  const get = await mine.run(['auth', 'git-credential', 'get']);
  assert.equal([get.code, get.stdout], [0, `username=alice\npassword=${token}\n`]);
  const json = await mine.run(['auth', 'git-credential', 'get', '--json']);
  assert.not.match(json.stdout, token);
  assert.equal(json.json().data, { operation: 'get', host: fake.url, answered: true, username: 'alice' });
  for (const op of ['store', 'erase']) {
    const r = await mine.run(['auth', 'git-credential', op]);
    assert.equal([r.code, r.stdout], [0, '']);
  }
  const status = await mine.run(['auth', 'status', '--json']);
  assert.is(status.json().data.hosts[0].check, 'ok', 'erase did not remove the login');
  const bad = await mine.run(['auth', 'git-credential', 'fetch']);
  assert.is(bad.code, 2);
  w.dispose();
  mine.dispose();
});

test.run();
