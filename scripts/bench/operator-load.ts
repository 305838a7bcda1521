// `npm run bench operator-load`: what loading the operator costs in RSS, side by side in one run, each in a fresh
// Node process with the Deployment's NODE_OPTIONS (imported, then a full GC, then process.memoryUsage()):
// bare Node, the `run` command from the bundle and from the tsc output, and each large dependency bundled alone
// (so the figures say what dropping one would save). No environment is needed.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { operatorNodeOptions } from '../../src/operator/compile/operator-deployment.ts';
import { bundleOperator } from '../operator-bundle.ts';

const root = join(import.meta.dirname, '..', '..');
const work = join(root, '.tmp', 'bench-operator-load');
const packages = ['undici', 'prom-client', 'cdk8s', 'yaml', 'semver'];

/** RSS and heap (MB) of a fresh Node after importing `files`, the median of three. */
function measure(files: string[]): { rss: number; heap: number } {
  const script = `for (const f of ${JSON.stringify(files)}) await import(f); globalThis.gc(); const m = process.memoryUsage(); console.log(JSON.stringify({ rss: m.rss / 1048576, heap: m.heapUsed / 1048576 }));`;
  const runs = [0, 1, 2].map(
    () =>
      JSON.parse(
        execFileSync(
          process.execPath,
          [...operatorNodeOptions.split(' '), '--expose-gc', '--input-type=module', '-e', script],
          {
            cwd: root,
            encoding: 'utf8',
          },
        ),
      ) as { rss: number; heap: number },
  );
  runs.sort((a, b) => a.rss - b.rss);
  return runs[1] as { rss: number; heap: number };
}

export async function run(): Promise<void> {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(join(work, 'packages'), { recursive: true });
  await bundleOperator(join(work, 'bundle'));
  execFileSync(
    join(root, 'node_modules', '.bin', 'tsc'),
    ['-p', 'tsconfig.build.json', '--outDir', join(work, 'tsc')],
    {
      cwd: root,
    },
  );
  const runChunk = readdirSync(join(work, 'bundle', 'chunks')).find((f) => f.startsWith('run-command-'));
  const rows: [string, string[]][] = [
    ['bare node', []],
    [
      'run (bundle: entry + run chunk)',
      [join(work, 'bundle', 'realmforge.mjs'), join(work, 'bundle', 'chunks', runChunk ?? '')],
    ],
    [
      'run (tsc output: main + run-command)',
      [join(work, 'tsc', 'src/operator/cli/main.js'), join(work, 'tsc', 'src/operator/cli/run-command.js')],
    ],
  ];
  for (const name of packages) {
    const entry = join(work, 'packages', `${name}.mjs`);
    writeFileSync(join(work, 'packages', `${name}-entry.mjs`), `export * as x from '${name}';\n`);
    await build({
      absWorkingDir: root,
      entryPoints: [join(work, 'packages', `${name}-entry.mjs`)],
      outfile: entry,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node22',
      logLevel: 'error',
      banner: {
        js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);",
      },
    });
    rows.push([`${name} alone (bundled)`, [entry]]);
  }
  rows.push(['node:http alone, imported (ES module)', ['node:http']]);
  // Required instead (what the health server does): no namespace of every export, so nothing lazy is loaded.
  writeFileSync(join(work, 'packages', 'require-http.cjs'), "require('node:http');\n");
  rows.push(['node:http alone, required (CommonJS)', [join(work, 'packages', 'require-http.cjs')]]);
  const bare = measure([]);
  console.log(
    `operator load cost: RSS after import and a full GC, NODE_OPTIONS="${operatorNodeOptions}", median of 3`,
  );
  for (const [name, files] of rows) {
    const m = files.length ? measure(files) : bare;
    console.log(
      `  ${name.padEnd(44)} ${m.rss.toFixed(1).padStart(6)} MB RSS (+${(m.rss - bare.rss).toFixed(1)} over bare), heap ${m.heap.toFixed(1)} MB`,
    );
  }
  rmSync(work, { recursive: true, force: true });
}
