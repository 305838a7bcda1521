// bbdc repo clone with the real git: ssh that fails fast, HTTPS with the stored token against git http-backend,
// the prompt only on a terminal, forced transports, forks with an upstream remote, ~user repositories.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultDeps } from '../../src/bbdc/default-deps.ts';
import type { GitRunner } from '../../src/bbdc/deps.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';
import { bareRepo, fakeSsh, gitHttpBackend } from './helpers/git-remote.ts';
import { assertPlan, assertSchema } from './helpers/pr.ts';
import { createWorld, git, type WorldOptions } from './helpers/world.ts';

const test = suite('bbdc repo clone');
const token = credentials.alice.token;
const bearer = `Bearer ${token}`;
const basic = `Basic ${Buffer.from(`alice:${credentials.alice.password}`).toString('base64')}`;
let fake: Awaited<ReturnType<typeof withFake>>;
let http: ReturnType<typeof gitHttpBackend>;
let root: string;
let closedPort: number;
const sha: Record<string, string> = {};

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

test.before(async () => {
  root = mkdtempSync(join(tmpdir(), 'bbdc-remotes-'));
  sha.api = bareRepo(root, 'proj/api.git', { 'README.md': '# api\n' });
  sha.tools = bareRepo(root, 'ops/tools.git', { 'tool.sh': 'echo hi\n' });
  sha.dotfiles = bareRepo(root, '~alice/dotfiles.git', { '.bashrc': 'set -o vi\n' });
  git(root, 'clone', '-q', '--bare', join(root, 'proj/api.git'), join(root, '~alice/api-fork.git'));
  // A port nothing listens on: ssh is refused at once, as when no ssh server is reachable.
  const closed = createServer();
  closedPort = await listen(closed);
  closed.close();
  http = gitHttpBackend(root, (h) => h === bearer || h === basic);
  fake = await withFake('small', { git: http.handler, sshHost: `127.0.0.1:${closedPort}` });
  fake.state.repos.push({
    id: 50,
    slug: 'api-fork',
    name: 'api-fork',
    projectKey: '~alice',
    public: false,
    originId: 11,
  });
});
test.after(async () => {
  await fake.stop();
  rmSync(root, { recursive: true, force: true });
});

/** A world whose token is stored by `bbdc auth login` (a 0600 file: this world has no keyring). */
async function loggedIn(options: WorldOptions = {}) {
  const w = createWorld(options);
  const login = await w.run(['auth', 'login', fake.url, '--token', token, '--no-discover-aliases']);
  assert.is(login.code, 0, login.stderr);
  return w;
}

/** A git runner that records every call's argv and environment before running the real git. */
function recordingGit() {
  const calls: { args: string[]; env: Record<string, string | undefined> }[] = [];
  const real = defaultDeps().git;
  const run: GitRunner = (args, cwd, options) => {
    calls.push({ args, env: { ...options?.env } });
    return real(args, cwd, options);
  };
  return { calls, run };
}

const scm = (path: string) => `${fake.url}/scm/${path}.git`;
const methods = (d: { attempts: { method: string; ok: boolean }[] }) =>
  d.attempts.map((a) => [a.method, a.ok]);

test('ssh to a closed port fails fast, then HTTPS carries the stored token in a header, never in the URL', async () => {
  const w = await loggedIn();
  const recorder = recordingGit();
  const seen = http.authorizations.length;
  const started = Date.now();
  const r = await w.run(['repo', 'clone', 'PROJ/api', '--json'], { deps: { git: recorder.run } });
  const ms = Date.now() - started;
  assert.is(r.code, 0, r.stdout + r.stderr);
  const d = r.json().data;
  assertSchema('clone', d);
  assert.equal(methods(d), [
    ['ssh', false],
    ['https-token', true],
  ]);
  assert.match(d.attempts[0].error, 'Connection refused');
  assert.ok(ms < 4000, `the ssh attempt and the fallback took ${ms} ms`);
  assert.equal([d.method, d.url, d.directory], ['https', scm('proj/api'), join(w.dir, 'api')]);
  assert.is(git(d.directory, 'rev-parse', 'HEAD').trim(), sha.api);
  assert.is(git(d.directory, 'remote', 'get-url', 'origin').trim(), scm('proj/api'));
  assert.not.match(readFileSync(join(d.directory, '.git', 'config'), 'utf8'), token);
  const sent = http.authorizations.slice(seen);
  assert.ok(sent.length > 0 && sent.every((h) => h === bearer), `git sent ${sent.join(', ')}`);
  const clones = recorder.calls.filter((c) => c.args[0] === 'clone');
  assert.equal(
    clones.map((c) => c.args),
    [
      ['clone', '--', `ssh://git@127.0.0.1:${closedPort}/proj/api.git`, d.directory],
      ['clone', '--', scm('proj/api'), d.directory],
    ],
  );
  assert.match(clones[0].env.GIT_SSH_COMMAND ?? '', /^ssh -o BatchMode=yes -o ConnectTimeout=5$/);
  assert.equal(
    [clones[1].env.GIT_CONFIG_COUNT, clones[1].env.GIT_CONFIG_KEY_0, clones[1].env.GIT_CONFIG_VALUE_0],
    ['1', `http.${fake.url}/.extraHeader`, `Authorization: ${bearer}`],
  );
  assert.equal(clones[1].env.GIT_TERMINAL_PROMPT, '0');
  w.dispose();
});

test('an ssh server that never answers is given up after BBDC_SSH_CONNECT_TIMEOUT seconds', async () => {
  const silent = createServer(() => {});
  const port = await listen(silent);
  const other = await withFake('small', { git: http.handler, sshHost: `127.0.0.1:${port}` });
  const w = createWorld({ env: { BBDC_URL: other.url, BBDC_TOKEN: token, BBDC_SSH_CONNECT_TIMEOUT: '1' } });
  try {
    const started = Date.now();
    const r = await w.run(['repo', 'clone', 'PROJ/api', '--json']);
    const ms = Date.now() - started;
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.equal(methods(r.json().data), [
      ['ssh', false],
      ['https-token', true],
    ]);
    assert.match(r.json().data.attempts[0].error, 'timed out');
    assert.ok(ms >= 900 && ms < 4000, `took ${ms} ms`);
    const bad = await w.run(['repo', 'clone', 'PROJ/api', 'x'], {
      env: { BBDC_SSH_CONNECT_TIMEOUT: 'soon' },
    });
    assert.equal(
      [bad.code, bad.stderr],
      [2, 'error: BBDC_SSH_CONNECT_TIMEOUT "soon" must be a whole number of seconds, e.g. 5\n'],
    );
  } finally {
    w.dispose();
    silent.close();
    await other.stop();
  }
});

test('not on a terminal and no token: a clear error naming auth login, no prompt, no directory left', async () => {
  const w = createWorld({ env: { BBDC_URL: fake.url } });
  const r = await w.run(['repo', 'clone', 'OPS/tools']);
  assert.is(r.code, 3, r.stderr);
  assert.match(
    r.stderr,
    'error: could not clone OPS/tools: ssh failed; bbdc asks for credentials only on a terminal',
  );
  assert.match(r.stderr, `run \`bbdc auth login ${fake.url}\` (or set BBDC_TOKEN)`);
  assert.match(r.stderr, `  - ssh ssh://git@127.0.0.1:${closedPort}/ops/tools.git: `);
  assert.equal(w.asked, []);
  assert.not.ok(existsSync(join(w.dir, 'tools')), 'the failed clone left no directory');
  const json = await w.run(['repo', 'clone', 'OPS/tools', '--json']);
  assert.equal([json.code, json.json().error.kind, json.json().error.exitCode], [3, 'auth', 3]);
  w.dispose();
});

test('on a terminal without a token: asks for credentials and sends them as a header', async () => {
  const w = createWorld({
    env: { BBDC_URL: fake.url },
    stdinTTY: true,
    prompts: ['', token, 'alice', 'wrong'],
  });
  const r = await w.run(['repo', 'clone', 'OPS/tools', '--json']);
  assert.is(r.code, 0, r.stdout + r.stderr);
  assert.equal(methods(r.json().data), [
    ['ssh', false],
    ['https-prompt', true],
  ]);
  assert.equal(w.asked, [
    `Username for ${fake.url} (empty to use an HTTP access token): `,
    `HTTP access token for ${fake.url}: `,
  ]);
  assert.is(git(join(w.dir, 'tools'), 'rev-parse', 'HEAD').trim(), sha.tools);
  const wrong = await w.run(['repo', 'clone', 'OPS/tools', 'again', '--https']);
  assert.is(wrong.code, 3);
  assert.match(wrong.stderr, 'could not clone OPS/tools: HTTPS with credentials you type failed');
  assert.match(
    wrong.stderr,
    `https-prompt ${scm('ops/tools')}: ${fake.url} refused the credentials (HTTP 401)`,
  );
  w.dispose();
});

test('--https skips ssh; --ssh tries ssh only; both together are a usage error', async () => {
  const w = await loggedIn();
  const https = await w.run(['repo', 'clone', 'PROJ/api', 'over-https', '--https', '--json']);
  assert.is(https.code, 0, https.stdout + https.stderr);
  assert.equal(methods(https.json().data), [['https-token', true]]);
  const ssh = await w.run(['repo', 'clone', 'PROJ/api', 'over-ssh', '--ssh']);
  assert.is(ssh.code, 3);
  assert.match(ssh.stderr, 'could not clone PROJ/api: ssh failed; check that your SSH key is added');
  assert.is(ssh.stderr.split('\n  - ').length, 2, `one attempt only: ${ssh.stderr}`);
  assert.not.ok(existsSync(join(w.dir, 'over-ssh')));
  const both = await w.run(['repo', 'clone', 'PROJ/api', '--ssh', '--https']);
  assert.equal(
    [both.code, both.stderr],
    [2, 'error: --ssh and --https each force one transport; pass only one\n'],
  );
  w.dispose();
});

test('ssh that works: the fork is cloned over ssh and its origin becomes remote upstream, fetched', async () => {
  const w = await loggedIn();
  const ssh = fakeSsh(w.dir, root);
  const env = { GIT_SSH_COMMAND: ssh.command, GIT_SSH_VARIANT: 'ssh' };
  const r = await w.run(['repo', 'clone', '~alice/api-fork', '--json'], { env });
  assert.is(r.code, 0, r.stdout + r.stderr);
  const d = r.json().data;
  assertSchema('clone', d);
  assert.equal(methods(d), [['ssh', true]]);
  assert.equal(d.upstream, `ssh://git@127.0.0.1:${closedPort}/proj/api.git`);
  assert.is(git(d.directory, 'remote', 'get-url', 'upstream').trim(), d.upstream);
  assert.is(git(d.directory, 'rev-parse', 'upstream/main').trim(), sha.api);
  assert.match(
    readFileSync(ssh.log, 'utf8'),
    `${ssh.command} -o BatchMode=yes -o ConnectTimeout=5`.slice(ssh.command.length + 1),
  );
  const human = await w.run(['repo', 'clone', '~alice/api-fork', 'fork-https', '--https'], { env });
  assert.is(human.code, 0, human.stderr);
  assert.is(
    human.stdout,
    `Cloned ~alice/api-fork into ${join(w.dir, 'fork-https')} over https (${scm('~alice/api-fork')}).\nAdded remote "upstream": ${scm('proj/api')}\n`,
  );
  assert.is(git(join(w.dir, 'fork-https'), 'rev-parse', 'upstream/main').trim(), sha.api);
  w.dispose();
});

test("on a terminal git's own progress is shown; with --json it is not", async () => {
  const w = createWorld({ env: { BBDC_URL: fake.url, BBDC_TOKEN: token }, tty: true });
  const r = await w.run(['repo', 'clone', 'PROJ/api', '--https']);
  assert.is(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    `Cloning ${'PROJ/api'} into ${join(w.dir, 'api')} over HTTPS with the stored token...\nCloning into '${join(w.dir, 'api')}'...`,
  );
  assert.match(r.stderr, 'Receiving objects: 100%');
  assert.not.match(r.stderr, token);
  const json = await w.run(['repo', 'clone', 'PROJ/api', 'quiet', '--https', '--json']);
  assert.is(json.stderr, '');
  w.dispose();
});

test('~user repositories, a directory argument, git flags after --, and the top-level clone alias', async () => {
  const w = await loggedIn();
  const r = await w.run(['clone', '~ALICE/dotfiles', 'dots', '--https', '--json', '--', '--depth', '1']);
  assert.is(r.code, 0, r.stdout + r.stderr);
  const d = r.json().data;
  assert.equal(
    [d.repository, d.url, d.directory],
    ['~alice/dotfiles', scm('~alice/dotfiles'), join(w.dir, 'dots')],
  );
  assert.is(git(d.directory, 'rev-parse', 'HEAD').trim(), sha.dotfiles);
  assert.is(git(d.directory, 'rev-parse', '--is-shallow-repository').trim(), 'true');
  const byUrl = await w.run(
    ['repo', 'clone', `ssh://git@127.0.0.1:${closedPort}/~alice/dotfiles.git`, '--https', '--json'],
    {
      env: { BBDC_URL: fake.url },
    },
  );
  assert.is(byUrl.code, 0, byUrl.stdout + byUrl.stderr);
  assert.is(byUrl.json().data.directory, join(w.dir, 'dotfiles'));
  const help = await w.run(['clone', '--help']);
  assert.match(help.stdout, 'Usage: bbdc clone <repository> [directory] [flags] [-- <git clone flags>]');
  w.dispose();
});

test('--dry-run shows the URLs, transports and directory, and runs no git', async () => {
  const w = await loggedIn();
  const before = fake.requests.length;
  const dry = await w.run(['repo', 'clone', '~alice/api-fork', '--dry-run', '--json', '--', '--depth', '1']);
  assert.is(dry.code, 0, dry.stdout + dry.stderr);
  const plan = dry.json().data;
  assertPlan(plan);
  assert.equal(plan.reasons, [
    `attempt 1: ssh: ssh://git@127.0.0.1:${closedPort}/~alice/api-fork.git (BatchMode=yes, ConnectTimeout=5s)`,
    `attempt 2: HTTPS with the stored token: ${scm('~alice/api-fork')} (Authorization header through GIT_CONFIG_COUNT/KEY/VALUE, not in the URL)`,
    'no prompt: not a terminal',
    `directory: ${join(w.dir, 'api-fork')}`,
    'git clone flags: --depth 1',
    `fork: remote "upstream" would be ${scm('proj/api')} (ssh://git@127.0.0.1:${closedPort}/proj/api.git after an ssh clone)`,
  ]);
  assert.equal([plan.predictedAction, plan.blockingReasons], ['create', []]);
  assert.equal(
    fake.requests.slice(before).filter((q) => q.path.startsWith('/scm/')),
    [],
  );
  assert.not.ok(existsSync(join(w.dir, 'api-fork')));
  const human = await w.run(['repo', 'clone', 'PROJ/api', '--dry-run']);
  assert.match(human.stdout, `Dry run: would clone PROJ/api into ${join(w.dir, 'api')} from ssh://`);
  mkdirSync(join(w.dir, 'taken'));
  writeFileSync(join(w.dir, 'taken', 'file'), 'x');
  const blocked = (await w.run(['repo', 'clone', 'PROJ/api', 'taken', '--dry-run', '--json'])).json().data;
  assert.equal(blocked.predictedAction, 'conflict');
  assert.match(blocked.blockingReasons[0], 'taken already exists and is not an empty directory');
  w.dispose();
});

test('errors: git missing, a directory in the way, a repository that does not exist; no request before local checks', async () => {
  const w = await loggedIn();
  const before = fake.requests.length;
  const noGit = await w.run(['repo', 'clone', 'PROJ/api'], { env: { PATH: join(w.dir, 'empty-path') } });
  assert.equal(
    [noGit.code, noGit.stderr],
    [
      4,
      'error: git was not found on PATH; install Git (https://git-scm.com/downloads) and run the command again\n',
    ],
  );
  mkdirSync(join(w.dir, 'api'));
  writeFileSync(join(w.dir, 'api', 'notes.txt'), 'mine');
  const taken = await w.run(['repo', 'clone', 'PROJ/api', '--json']);
  assert.equal([taken.code, taken.json().error.kind], [5, 'conflict']);
  assert.match(
    taken.json().error.message,
    `${join(w.dir, 'api')} already exists and is not an empty directory; name another directory`,
  );
  assert.is(fake.requests.length, before, 'local problems are found before any request');
  assert.is(readFileSync(join(w.dir, 'api', 'notes.txt'), 'utf8'), 'mine');
  const missing = await w.run(['repo', 'clone', 'PROJ/nope']);
  assert.is(missing.code, 4);
  assert.match(
    missing.stderr,
    `error: repository PROJ/nope was not found on ${fake.url}, or you may not read it; check the name with \`bbdc repo list --project PROJ\``,
  );
  mkdirSync(join(w.dir, 'empty'));
  const intoEmpty = await w.run(['repo', 'clone', 'PROJ/api', 'empty', '--https']);
  assert.is(intoEmpty.code, 0, 'an empty directory takes a clone, as with git');
  w.dispose();
});

test.run();
