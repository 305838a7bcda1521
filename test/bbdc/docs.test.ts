import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { renderCommandsDoc } from '../../src/bbdc/docs.ts';
import { registry } from '../../src/bbdc/registry.ts';

test('docs/commands.md is generated from the registry and up to date', async () => {
  const expected = await renderCommandsDoc();
  const actual = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'commands.md'), 'utf8');
  assert.ok(actual.startsWith('<!-- DO NOT EDIT.'));
  assert.ok(actual === expected, 'docs/commands.md is stale: run `node scripts/generate-cli-docs.ts`');
  for (const e of registry) assert.match(actual, `### bbdc ${e.name}\n`);
});

test.run();
