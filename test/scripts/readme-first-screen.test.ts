// The README's first screen gives the two commands a newcomer needs: `npm start` (run it) and `npm test` (test
// it), and those npm scripts are what the README says they are.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = join(import.meta.dirname, '..', '..');

test('the first code block of the README runs it (npm start) and tests it (npm test)', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const first = /```sh\n([\s\S]*?)```/.exec(readme);
  assert.ok(first, 'the README has no sh block');
  const screen = readme.slice(0, (first?.index ?? 0) + (first?.[0].length ?? 0)).split('\n');
  assert.ok(screen.length <= 30, `the first sh block ends on line ${screen.length}, below the first screen`);
  const commands = (first?.[1] ?? '').split('\n').filter((l) => l && !l.startsWith('#'));
  assert.equal(commands, ['npm ci && npm start', 'npm ci && npm test']);
});

test('npm start and npm stop are realmforge dev up and down; npm test is the Node-only runner', () => {
  const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
  assert.is(scripts.start, 'node bin/realmforge.js dev up');
  assert.is(scripts.stop, 'node bin/realmforge.js dev down');
  assert.is(scripts.test, 'node scripts/test.ts');
  assert.is(scripts['test:charts'], 'node scripts/test.ts --charts');
});

test.run();
