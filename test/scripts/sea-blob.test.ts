// The single executable's blob: its build-time V8 code cache must be one the executable accepts, that is, made under
// the same V8 flags the executable runs with (V8 refuses a cache made under others; --expose-gc changes the hash).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cliV8Flags, makeBlob } from '../../scripts/release/sea.ts';

const test = suite('sea blob');

test('the build-time code cache is accepted by a Node running with the executable flags', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bbdc-sea-blob-'));
  try {
    const bundle = join(dir, 'bbdc.cjs');
    writeFileSync(bundle, '(function (require) { return function answer() { return 42; }; })\n');
    makeBlob(process.execPath, { main: bundle, bundle }, dir, { codeCache: true });
    // What the launcher (scripts/release/sea-launcher.ts) does with the asset, under the execArgv of the blob.
    const check = `const { Script } = require('node:vm'); const fs = require('node:fs');
      const s = new Script(fs.readFileSync(process.argv[1], 'utf8'), { filename: 'bbdc.cjs', cachedData: fs.readFileSync(process.argv[2]) });
      process.stdout.write(String(s.cachedDataRejected));`;
    const r = spawnSync(process.execPath, [...cliV8Flags, '-e', check, bundle, join(dir, 'bbdc.cache')], {
      encoding: 'utf8',
    });
    assert.is(r.stdout, 'false', r.stderr || 'V8 refused the cache made at build time');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
