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

test.run();
