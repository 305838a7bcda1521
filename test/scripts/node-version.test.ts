// bin/start.js requireNode: both command lines refuse a Node older than package.json's engines in one line.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = join(import.meta.dirname, '..', '..');

/** Runs requireNode('bbdc') in a Node that reports `version`. */
function asNode(version: string) {
  const script = `Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '${version}' } });
Object.defineProperty(process, 'version', { value: 'v${version}' });
const { requireNode } = await import(${JSON.stringify(join(root, 'bin', 'start.js'))});
requireNode('bbdc');
console.log('ran');`;
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
}

test('the engines range of package.json is the one enforced', () => {
  assert.is(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node, '>=22.19');
});

test('Node 22.18 and 20 are refused with one line and exit 2; 22.19, 23 and 24 run', () => {
  for (const old of ['22.18.0', '20.20.2']) {
    const r = asNode(old);
    assert.is(r.status, 2, old);
    assert.is(r.stdout, '');
    assert.is(r.stderr, `bbdc: needs Node.js 22.19 or newer; this is v${old}. Install a newer Node.js.\n`);
  }
  for (const ok of ['22.19.0', '23.0.0', '24.21.0']) {
    const r = asNode(ok);
    assert.is(r.status, 0, r.stderr);
    assert.is(r.stdout, 'ran\n');
  }
});

test.run();
