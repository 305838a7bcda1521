// `npm run bench <group> [case...]`: runs scripts/bench/<group>.ts, which prints its own side-by-side figures.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const [group, ...args] = process.argv.slice(2);
const dir = join(import.meta.dirname, 'bench');
const groups = readdirSync(dir)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -3));
if (!group || !existsSync(join(dir, `${group}.ts`))) {
  console.error(`usage: npm run bench <group> [case...]; groups: ${groups.join(', ')}`);
  process.exit(2);
}
const bench = (await import(join(dir, `${group}.ts`))) as { run(args: string[]): Promise<void> };
await bench.run(args);
