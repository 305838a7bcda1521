// `realmforge dev` (npm start / npm stop) without the environment: missing prerequisites are named with their
// install commands before anything starts, and the other subcommands say what is wrong. Run as a subprocess with
// an empty cache and a PATH holding none of Go, Maven, unzip or openssl, so nothing can be built or started.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = join(import.meta.dirname, '..', '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'realmforge-dev-test-'));
const env = {
  HOME: scratch,
  PATH: mkdtempSync(join(tmpdir(), 'empty-path-')),
  REALMFORGE_CACHE_DIR: join(scratch, 'cache'),
  REALMFORGE_DEV_STATE: join(scratch, 'dev', 'state.json'),
};

function dev(...args: string[]) {
  const r = spawnSync(process.execPath, [join(root, 'bin', 'realmforge.js'), 'dev', ...args], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('dev up on a bare machine: the estimate, then every missing tool with its install command; nothing started', () => {
  const r = dev('up');
  assert.is(r.code, 2, r.stderr);
  assert.match(
    r.stdout,
    /first run: building etcd and Kubernetes .* from their Go modules; Keycloak 26\.\d+\.\d+ \(fetched with Maven, then augmented\): about \d+-\d+ minutes on 2 cores/,
  );
  assert.match(r.stderr, /missing prerequisites \(nothing was started\)/);
  assert.match(
    r.stderr,
    /- Go 1\.26 or newer \(builds etcd and Kubernetes\): https:\/\/go\.dev\/dl\/ \(or apt-get install golang-1\.26\)/,
  );
  assert.match(r.stderr, /- Maven \(fetches Keycloak from Maven Central\): apt-get install maven/);
  assert.match(r.stderr, /- openssl \(the cluster certificates\): apt-get install openssl/);
  assert.not.match(r.stderr, /\n\s+at /, 'a stack trace');
  assert.not.ok(existsSync(env.REALMFORGE_DEV_STATE), 'a state file was written');
});

test('dev logs and dev status when nothing is up; dev down is a no-op', () => {
  const logs = dev('logs');
  assert.is(logs.code, 2);
  assert.match(logs.stderr, /realmforge dev is not up: run npm start/);
  assert.is(dev('status').code, 1);
  const down = dev('down');
  assert.is(down.code, 0, down.stderr);
  assert.match(down.stdout, /nothing is up/);
});

test('an unknown dev subcommand, and flags dev does not take, are usage errors', () => {
  const r = dev('start');
  assert.is(r.code, 2);
  assert.match(r.stderr, /unknown command "start": use up, down, logs \[--follow\] or status/);
  const flag = dev('up', '--json');
  assert.is(flag.code, 2);
  assert.match(flag.stderr, /realmforge dev does not take --json/);
});

test.run();
