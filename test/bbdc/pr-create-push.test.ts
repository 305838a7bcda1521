// pr create from a branch the server does not have: found before anything is created, the git command named, and
// --push pushes it first; --dry-run reports every reason the run would stop and exits as that run would.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultDeps } from '../../src/bbdc/default-deps.ts';
import type { GitRunner } from '../../src/bbdc/deps.ts';
import { pullRequestsOf } from '../fake-bitbucket/pull-request-state.ts';
import { withFake } from './helpers/fake.ts';
import { prWorld, writesSince } from './helpers/pr.ts';
import { git, repoWithRemotes } from './helpers/world.ts';

const test = suite('bbdc pr create: an unpushed branch');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before.each(async () => {
  fake = await withFake();
});
test.after.each(async () => {
  await fake.stop();
});
const identity = ['-c', 'user.name=T', '-c', 'user.email=t@example.test'];

test('the real run stops before creating anything and names the git push to run, with the remote of the clone', async () => {
  const w = prWorld(fake);
  const cwd = repoWithRemotes(w.dir, 'clone', { upstream: `${fake.url}/scm/proj/api.git` });
  git(cwd, 'checkout', '-q', '-b', 'topic/unpushed');
  const n = fake.requests.length;
  const r = await w.run(['pr', 'create', '--title', 'T'], { cwd });
  assert.is(r.code, 2);
  assert.match(
    r.stderr,
    'branch topic/unpushed is not on the server (PROJ/api): push it with `git push -u upstream topic/unpushed`, or pass --push',
  );
  assert.equal(writesSince(fake, n), []);
  w.dispose();
});

test('--dry-run lists every reason the run would stop, a missing --title without a terminal too, and exits 5', async () => {
  const w = prWorld(fake);
  const cwd = repoWithRemotes(w.dir, 'clone', { origin: `${fake.url}/scm/proj/api.git` });
  git(cwd, 'checkout', '-q', '-b', 'topic/unpushed');
  const r = await w.run(['pr', 'create', '-r', 'ghost', '--dry-run', '--json'], { cwd });
  assert.is(r.code, 5, 'a plan the real run would refuse is no success');
  assert.equal(r.json().data.predictedAction, 'conflict');
  assert.equal(r.json().data.blockingReasons, [
    '--title is missing and there is no terminal to ask for it on: pass --title TEXT',
    'branch topic/unpushed is not on the server (PROJ/api): push it with `git push -u origin topic/unpushed`, or pass --push',
    '--reviewers: no such user "ghost"',
  ]);
  // On a terminal the title is asked for when run: not a reason to stop.
  const tty = prWorld(fake, 'alice', { tty: true, stdinTTY: true });
  const asked = await tty.run(['pr', 'create', '--from', 'feature/new', '--dry-run'], { cwd });
  assert.is(asked.code, 0, asked.stdout + asked.stderr);
  w.dispose();
  tty.dispose();
});

test('--push pushes the branch with git push -u, then creates the pull request from it', async () => {
  const w = prWorld(fake);
  const bare = mkdtempSync(join(tmpdir(), 'bbdc-push-remote-'));
  git(bare, 'init', '-q', '--bare');
  const cwd = repoWithRemotes(w.dir, 'clone', { origin: bare });
  git(cwd, 'checkout', '-q', '-b', 'topic/pushed');
  git(cwd, ...identity, 'commit', '-q', '--allow-empty', '-m', 'Work');
  const plan = await w.run(['pr', 'create', '-t', 'Pushed', '--push', '--dry-run', '--json'], { cwd });
  assert.is(plan.code, 0, plan.stdout);
  assert.ok(plan.json().data.reasons.includes('pushes topic/pushed first: git push -u origin topic/pushed'));
  // The server learns of a pushed branch as Bitbucket does when git pushes to it.
  const real = defaultDeps().git;
  const pushes: string[][] = [];
  const gitThenServer: GitRunner = async (args, dir, options) => {
    const r = await real(args, dir, options);
    if (args[0] === 'push' && r.code === 0) {
      pushes.push(args);
      pullRequestsOf(fake.state).branches['PROJ/api'][args.at(-1)!] = git(cwd, 'rev-parse', 'HEAD').trim();
    }
    return r;
  };
  const r = await w.run(['pr', 'create', '-t', 'Pushed', '--push', '--json'], {
    cwd,
    deps: { git: gitThenServer },
  });
  assert.is(r.code, 0, r.stdout + r.stderr);
  assert.equal(pushes, [['push', '-u', 'origin', 'topic/pushed']]);
  assert.is(git(bare, 'rev-parse', 'topic/pushed').trim(), git(cwd, 'rev-parse', 'HEAD').trim());
  assert.is(git(cwd, 'rev-parse', '--abbrev-ref', '@{upstream}').trim(), 'origin/topic/pushed');
  assert.equal([r.json().data.from.branch, r.json().data.title], ['topic/pushed', 'Pushed']);
  w.dispose();
  rmSync(bare, { recursive: true, force: true });
});

test.run();
