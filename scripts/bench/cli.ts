// `npm run bench:cli -- [case...]`: every case (default: startup) is a file in scripts/bench/cli/.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Runs the named CLI benchmarks (default: startup); a case other than startup is scripts/bench/cli/<case>.ts. */
export async function run(args: string[]): Promise<void> {
  const cases = args.filter((a) => !a.startsWith('--'));
  const dir = join(import.meta.dirname, 'cli');
  const known = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.ts'))
        .map((f) => f.slice(0, -3))
    : [];
  for (const name of cases.length ? cases : ['startup']) {
    if (known.includes(name))
      await ((await import(join(dir, `${name}.ts`))) as { run(args: string[]): Promise<void> }).run(args);
    else console.error(`unknown case: ${name}; cases: ${known.join(', ')}`);
  }
}
