// The memory settings the bench compares: each one changes exactly the setting it names, so a row of the table
// says what that setting is worth.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { memoryVariants } from '../../scripts/bench/memory-settings.ts';
import { operatorProcessEnv } from '../../src/operator/compile/operator-deployment.ts';

const base = { ...operatorProcessEnv };
const byName = new Map(memoryVariants(base).map((v) => [v.name, v.env]));
const flags = (env?: Record<string, string>) => new Set((env?.NODE_OPTIONS ?? '').split(' '));

test('the Deployment runs first and last, unchanged', () => {
  const names = memoryVariants(base).map((v) => v.name);
  assert.is(names[0], 'the Deployment');
  assert.is(names.at(-1), 'the Deployment again');
  assert.equal(byName.get('the Deployment'), base);
});

test('each setting taken back on its own changes only that setting', () => {
  const semi = byName.get('semi-space 4 MB');
  assert.equal({ ...semi, NODE_OPTIONS: '' }, { ...base, NODE_OPTIONS: '' });
  assert.ok(flags(semi).has('--max-semi-space-size=4'));
  assert.equal(
    [...flags(semi)].filter((f) => !f.startsWith('--max-semi-space-size')),
    [...flags(base)].filter((f) => !f.startsWith('--max-semi-space-size')),
  );
  assert.equal(
    [...flags(byName.get('V8 pool default (4)'))],
    [...flags(base)].filter((f) => !f.startsWith('--v8-pool-size')),
  );
  assert.equal(
    byName.get('malloc arenas uncapped'),
    Object.fromEntries(Object.entries(base).filter(([k]) => k !== 'MALLOC_ARENA_MAX')),
  );
  assert.equal(byName.get('MALLOC_ARENA_MAX=1'), { ...base, MALLOC_ARENA_MAX: '1' });
});

test('"before" is the settings this replaced: semi-space 4, no V8 pool flag, no arena cap', () => {
  const before = byName.get('before (semi 4, pool 4, no cap)');
  assert.equal([...flags(before)].sort(), ['--max-old-space-size=192', '--max-semi-space-size=4']);
  assert.is(before?.MALLOC_ARENA_MAX, undefined);
});

test.run();
