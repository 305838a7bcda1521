// `bbdc repo list | head`: the reader closes the pipe early, and bbdc stops quietly instead of crashing.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';

const test = suite('bbdc closed pipe');
const root = join(import.meta.dirname, '..', '..');

for (const json of [false, true]) {
  test(`a reader that closes stdout early stops repo list${json ? ' --json' : ''} with 141 and no stack trace`, async () => {
    const fake = await withFake('large');
    const dir = mkdtempSync(join(tmpdir(), 'bbdc-pipe-'));
    try {
      const argv = ['repo', 'list', '--limit', '5000', ...(json ? ['--json'] : [])];
      const child = spawn(process.execPath, [join(root, 'bin', 'bbdc.js'), ...argv], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          BBDC_URL: fake.url,
          BBDC_TOKEN: credentials.alice.token,
          BBDC_CONFIG_DIR: join(dir, 'config'),
        },
      });
      let stderr = '';
      let got = 0;
      child.stderr.on('data', (d) => (stderr += d));
      // As `head -c 1000` does: read a little, then close the read end while bbdc is still writing.
      child.stdout.on('data', (d: Buffer) => {
        got += d.length;
        if (got >= 1000) child.stdout.destroy();
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      assert.ok(got >= 1000, 'bbdc wrote before the pipe closed');
      assert.is(stderr.includes('EPIPE') || stderr.includes('    at '), false, stderr);
      assert.is(code, 141, stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await fake.stop();
    }
  });
}

test.run();
