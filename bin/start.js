// What both bins do before any of their code loads. Plain JavaScript (type-checked by tsc through its JSDoc): it runs
// on any Node, so that an older one than package.json's engines is told so in one line instead of a stack trace.

/**
 * Exits with status 2 and one line naming `name` when this Node is older than 22.19 (package.json engines): the
 * sources need its type stripping, the bundles its require() of ES modules.
 * @param {string} name
 */
export function requireNode(name) {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 19)) return;
  process.stderr.write(
    `${name}: needs Node.js 22.19 or newer; this is ${process.version}. Install a newer Node.js.\n`,
  );
  process.exit(2);
}

/**
 * Runs `name` from the first of `entries` (paths from the package root) that exists, else the last: the TypeScript
 * sources in a checkout, the JavaScript build (`npm run build`) in an installed package, where Node strips no types.
 * Its `main(argv)` resolves to the exit code. `compileCache` turns Node's module compile cache on first (Node keeps it,
 * keyed by each file's content, in $NODE_COMPILE_CACHE or the temporary directory). The bins do not await it: a
 * top-level await still pending when the event loop empties would end the process with exit code 13.
 * @param {string} name
 * @param {string[]} entries
 * @param {{ compileCache?: boolean }} [options]
 */
export async function start(name, entries, options = {}) {
  requireNode(name);
  if (options.compileCache) process.getBuiltinModule('node:module').enableCompileCache?.();
  const { existsSync } = process.getBuiltinModule('node:fs');
  const urls = entries.map((e) => new URL(`../${e}`, import.meta.url));
  const entry = urls.find((u) => existsSync(u)) ?? urls[urls.length - 1];
  /** @type {{ main(argv: string[]): Promise<number> }} */
  const { main } = await import(entry.href);
  process.exitCode = await main(process.argv.slice(2));
}
