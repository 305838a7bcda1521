// `realmforge run` flag errors are usage errors (exit 2, one line, no stack), checked before anything starts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../../src/operator/cli/main.ts';
import { runCli } from '../../helpers/run-cli.ts';

test('a repeated flag, a bad duration and a bad rate limit stop run with a clear message', async () => {
  const repeated = await runCli(main, ['run', '--drift-interval=5s', '--drift-interval=9s']);
  assert.is(repeated.code, 2);
  assert.match(repeated.stderr, /can only be set once/);
  assert.not.match(repeated.stderr, /at .*\.js:\d+/);
  const duration = await runCli(main, ['run', '--drift-interval=soon']);
  assert.is(duration.code, 2);
  assert.match(duration.stderr, /--drift-interval must be a duration/);
});

test('an unknown flag is a usage error naming it; --help and --version answer on stdout with exit 0', async () => {
  const unknown = await runCli(main, ['run', '--bogus']);
  assert.is(unknown.code, 2);
  assert.is(unknown.stderr, 'realmforge: unknown flag --bogus: see realmforge --help\n');
  const help = await runCli(main, ['--help']);
  assert.is(help.code, 0);
  assert.match(help.stdout, /\$ realmforge run {2,}Run the operator/);
  assert.match(help.stdout, /--drift-interval <duration>/);
  const version = await runCli(main, ['--version']);
  assert.is(version.code, 0);
  assert.match(version.stdout, /^\d+\.\d+\.\d+/);
  const foreign = await runCli(main, ['synth', '--json', 'x.yaml']);
  assert.is(foreign.code, 2);
  assert.match(foreign.stderr, /realmforge synth does not take --json/);
});

test('a boolean flag takes =true and =false as the chart and manifests write it (--leader-elect=false); another value is refused', async () => {
  for (const value of ['true', 'false']) {
    // Parsed: the run stops at the next flag's error, not at --leader-elect.
    const r = await runCli(main, ['run', `--leader-elect=${value}`, '--drift-interval=soon']);
    assert.is(r.code, 2);
    assert.match(r.stderr, /--drift-interval must be a duration/);
  }
  const bad = await runCli(main, ['run', '--leader-elect=maybe']);
  assert.is(bad.code, 2);
  assert.is(
    bad.stderr,
    'realmforge: --leader-elect takes true or false, not "maybe": see realmforge --help\n',
  );
});

test.run();
