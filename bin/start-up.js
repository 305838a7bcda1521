// What bin/bbdc.js and the bundled entry do before any bbdc code loads. Plain JavaScript on purpose: it runs before
// the compile cache is on, and without the cache the first TypeScript file a process imports starts Node's type
// stripper (about 45 ms of CPU and 17 MB). CommonJS (bin/package.json): an ES module entry starts Node's ES module
// loader and links each import, which bbdc's start does not need (bin/bbdc.js says how much).
// process.getBuiltinModule, not require() or an ES import: the npm package's entry bundles this file as an ES module,
// which has no require(), and an ES import of node:fs reads every export, ReadStream's getter included, which loads
// Node's stream stack (about 4 ms).
const { readFileSync, statSync } = process.getBuiltinModule('node:fs');
const { join } = process.getBuiltinModule('node:path');

/**
 * Where bbdc keeps Node's module compile cache: `$NODE_COMPILE_CACHE` when set (Node's own variable), else the
 * user's cache directory (`$XDG_CACHE_HOME` or `~/.cache` on Linux, `~/Library/Caches` on macOS, `%LOCALAPPDATA%`
 * on Windows) under `bbdc/compile-cache`. Node keeps one subdirectory per Node version inside it.
 * @param {Readonly<Record<string, string | undefined>>} env
 * @param {string} homeDir
 * @param {string} platform
 * @returns {string}
 */
function compileCacheDir(env, homeDir, platform) {
  if (env.NODE_COMPILE_CACHE) return env.NODE_COMPILE_CACHE;
  if (platform === 'win32') return `${env.LOCALAPPDATA || `${homeDir}\\AppData\\Local`}\\bbdc\\compile-cache`;
  const base =
    platform === 'darwin' ? `${homeDir}/Library/Caches` : env.XDG_CACHE_HOME || `${homeDir}/.cache`;
  return `${base}/bbdc/compile-cache`;
}

/**
 * Turns Node's module compile cache (V8's compiled code, kept on disk) on for every module loaded after this call,
 * so a start reads compiled code instead of parsing it again. NODE_DISABLE_COMPILE_CACHE=1 turns it off (Node's
 * variable); a directory that cannot be written only costs start-up time, never an error. Returns the directory
 * (undefined without a home directory).
 * @returns {string | undefined}
 */
function enableCompileCache() {
  try {
    // process.getBuiltinModule, not an import: an ES import of node:module reads every export (about 5 ms).
    const home = process.env.HOME || process.env.USERPROFILE || process.getBuiltinModule('node:os').homedir();
    const dir = compileCacheDir(process.env, home, process.platform);
    process.getBuiltinModule('node:module').enableCompileCache?.(dir);
    return dir;
  } catch {
    return undefined; // no home directory: run without the cache
  }
}

/**
 * The checkout's bundle (`npm run build` writes dist/bbdc/bbdc.cjs) when it is fresh: it exists, and every input
 * listed for it in inputs.json still has its size and is no newer than the bundle (an edit, a `git checkout` or a
 * pull touches the file). Else undefined, and the sources run. With `group` (a command's first word) and a bundle of
 * that group's commands (listed in inputs.<group>.json), that bundle (scripts/release/bundle.ts says why); with
 * `command` too, one of the group's commands, only the inputs that command can run (the list's `commands`), since
 * the other commands' code in the bundle never runs for it.
 * @param {string} root the checkout
 * @param {string} [dir] where the bundle is
 * @param {string} [group] the first word of the command that runs
 * @param {string} [command] the words that name it (run-bundle.js commandWords)
 * @returns {string | undefined}
 */
function freshBundle(root, dir = join(root, 'dist', 'bbdc'), group = '', command = '') {
  try {
    /** @param {string} name */
    const read = (name) => {
      try {
        return readFileSync(join(dir, name), 'utf8');
      } catch {
        return undefined;
      }
    };
    // A command's first word is [a-z-] only (run-bundle.js commandWords): no path can be made of it.
    const text = (/^[a-z][a-z-]*$/.test(group) && read(`inputs.${group}.json`)) || read('inputs.json');
    /** @type {{ bundle: string, inputs: [path: string, size: number][], commands?: Record<string, number[]> }} */
    const list = JSON.parse(text ?? '');
    const bundle = join(dir, list.bundle);
    const built = statSync(bundle).mtimeMs;
    const prefix = `${root}/`;
    const own = list.commands && Object.hasOwn(list.commands, command) ? list.commands[command] : undefined;
    const count = own ? own.length : list.inputs.length;
    // 60-250 files: a plain loop over statSync, about 2 ms for 250.
    for (let i = 0; i < count; i++) {
      const [path, size] = list.inputs[own ? own[i] : i];
      const s = statSync(prefix + path, { throwIfNoEntry: false });
      if (s === undefined || s.size !== size || s.mtimeMs > built) return undefined;
    }
    return count ? bundle : undefined;
  } catch {
    return undefined; // no bundle, or an unreadable list: the sources run
  }
}

module.exports = { compileCacheDir, enableCompileCache, freshBundle };
