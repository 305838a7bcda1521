// `node scripts/generate-cli-docs.ts`: writes docs/commands.md from the bbdc command registry (`--check` only compares).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderCommandsDoc } from '../src/bbdc/docs.ts';

const target = join(import.meta.dirname, '..', 'docs', 'commands.md');
const text = await renderCommandsDoc();
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {}
  if (current !== text) {
    console.error('docs/commands.md is out of date; run `node scripts/generate-cli-docs.ts`');
    process.exitCode = 1;
  }
} else {
  writeFileSync(target, text);
  console.log('wrote docs/commands.md');
}
