// How bbdc starts, before any of its code loads: bin/bbdc.js's one module (bin/realmforge.js, the single executables'
// launcher and the npm package's entry use parts of it). Plain JavaScript on purpose: it runs before the compile
// cache is on, and without the cache the first TypeScript file a process imports starts Node's type stripper (about
// 45 ms of CPU and 17 MB). CommonJS (bin/package.json): an ES module entry starts Node's ES module loader and links
// each import, and each further CommonJS module costs a resolution and a compile: the launcher's helpers were three
// modules, now this one (pr get from the checkout's bundle about 0.7 ms of CPU less, medians of 50 runs).
// process.getBuiltinModule, not require() or an ES import: the npm package's entry bundles this file as an ES module,
// which has no require(), and an ES import of node:fs reads every export, ReadStream's getter included, which loads
// Node's stream stack (about 4 ms). A Node without process.getBuiltinModule (before 20.16) gets nothing here but
// requireNode's one line.
const { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } =
  process.getBuiltinModule?.('node:fs') ?? {};
const { basename, dirname } = process.getBuiltinModule?.('node:path') ?? {};

// Both command lines need Node.js 22.19 or newer (package.json engines): TypeScript sources run with type
// stripping, the bundles require() ES modules. An older Node is told so in one line instead of failing somewhere
// inside with a stack trace.

/**
 * Exits with status 2 and one line naming `name` when this Node is older than 22.19.
 * @param {string} name
 */
function requireNode(name) {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 19)) return;
  process.stderr.write(
    `${name}: needs Node.js 22.19 or newer; this is ${process.version}. Install a newer Node.js.\n`,
  );
  process.exit(2);
}

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
 * The directory of bbdc's caches (compileCacheDir) for this user; undefined without a home directory.
 * @returns {string | undefined}
 */
function cacheHome() {
  try {
    const home = process.env.HOME || process.env.USERPROFILE || process.getBuiltinModule('node:os').homedir();
    return compileCacheDir(process.env, home, process.platform);
  } catch {
    return undefined; // no home directory: run without the cache
  }
}

/**
 * Turns Node's module compile cache (V8's compiled code, kept on disk) on for every module loaded after this call,
 * so a start reads compiled code instead of parsing it again. NODE_DISABLE_COMPILE_CACHE=1 turns it off (Node's
 * variable); a directory that cannot be written only costs start-up time, never an error. Returns the directory
 * (undefined without a home directory).
 * @param {string | undefined} [dir]
 * @returns {string | undefined}
 */
function enableCompileCache(dir = cacheHome()) {
  try {
    // process.getBuiltinModule, not an import: an ES import of node:module reads every export (about 5 ms).
    if (dir) process.getBuiltinModule('node:module').enableCompileCache?.(dir);
  } catch {
    // an unusable directory: run without the cache
  }
  return dir;
}

/**
 * The checkout's bundle for `command` (`npm run build` writes them in dist/bbdc: scripts/release/bundle.ts
 * bundleForCheckout) when it is fresh: its list (`inputs.pr.get.json` for `pr get`, else `inputs.json`, the whole
 * bundle's) names it, it exists, and every input listed still has its size and is no newer than the bundle (an edit,
 * a `git checkout` or a pull touches the file). Else undefined, and the sources run. The list of a command is the
 * inputs it can run.
 * @param {string} root the checkout
 * @param {string} [dir] where the bundles are
 * @param {string} [command] the command (commandOf below)
 * @returns {string | undefined}
 */
function freshBundle(root, dir = `${root}/dist/bbdc`, command = '') {
  try {
    /** @param {string} name */
    const read = (name) => {
      try {
        return readFileSync(`${dir}/${name}`, 'utf8');
      } catch {
        return undefined;
      }
    };
    // Command words are [a-z-] only (commandWords below): no path, and no other command's list, can be made of them.
    const own = /^[a-z][a-z-]*( [a-z][a-z-]*)*$/.test(command) && read(`inputs.${listName(command)}.json`);
    /** @type {{ bundle: string, inputs: [path: string, size: number][] }} */
    const list = JSON.parse(own || read('inputs.json') || '');
    const bundle = `${dir}/${list.bundle}`;
    const built = statSync(bundle).mtimeMs;
    const prefix = `${root}/`;
    // 60-250 files: a plain loop over statSync, about 2 ms for 250.
    for (const [path, size] of list.inputs) {
      const s = statSync(prefix + path, { throwIfNoEntry: false });
      if (s === undefined || s.size !== size || s.mtimeMs > built) return undefined;
    }
    return list.inputs.length ? bundle : undefined;
  } catch {
    return undefined; // no bundle, or an unreadable list: the sources run
  }
}

/**
 * A command's part of a file name: `pr.get` (bundle.ts names the checkout's bundles and lists so).
 * @param {string} command
 */
const listName = (command) => command.replaceAll(' ', '.');

// The checkout's bundle with bbdc's own V8 code cache. Node's compile cache keeps only what V8 compiles when a file
// is loaded (its top level), so every run compiled again each function its command runs. This cache is written at
// the end of a run instead, with those functions in it, one cache for each command this user runs (measured with
// callgrind for pr get: 205 -> 182 million instructions, about 10%).

/**
 * The most caches a cache directory keeps, of all its bundles together (each is 100-450 KB: about 10 MB at most). A
 * new cache past it takes the place of the oldest written, so a command run again gets one back, and the caches of
 * commands no longer run (a bundle since rebuilt, a version since updated) leave in time.
 */
const maxCachedCommands = 32;

/**
 * The words that may name a command (`pr get` of `pr get 1 --json`, `repo clone api` of `repo clone api`), read as
 * far as they look like command names, up to the longest command's four: never parsed, only matched (commandOf).
 * @param {string[]} args
 */
function commandWords(args) {
  const words = [];
  for (const a of args.slice(0, 4)) {
    if (!/^[a-z][a-z-]*$/.test(a)) break;
    words.push(a);
  }
  return words.join(' ');
}

/**
 * The command `args` run, as far as bbdc's start knows its commands (`isCommand`): the longest leading words that
 * name one (`repo clone` of `repo clone api`), else the words themselves (a group's help, a mistyped command). It
 * names the run's code cache, so that `repo clone api` and `repo clone web` share one, and the checkout's bundle.
 * @param {string[]} args
 * @param {(command: string) => boolean} isCommand
 */
function commandOf(args, isCommand) {
  const words = commandWords(args);
  const w = words.split(' ');
  for (let n = w.length; n > 0 && words; n--) {
    const command = w.slice(0, n).join(' ');
    if (isCommand(command)) return command;
  }
  return words;
}

/**
 * Runs the checkout's `bundle` (runScript) with the code cache kept in `cacheDir` for this bundle and this Node
 * (none without one), its require() bundleRequire's, its packages by default from a require() of the bundle's
 * directory.
 * @param {string} bundle
 * @param {string | undefined} cacheDir
 * @param {string} command the words that name the command (`pr get`)
 * @param {() => (id: string) => unknown} [makeRequire]
 */
function runBundle(
  bundle,
  cacheDir,
  command,
  makeRequire = () => process.getBuiltinModule('node:module').createRequire(bundle),
) {
  const built = statSync(bundle);
  return runScript({
    // esbuild writes ASCII (its default charset): latin1 reads the bytes as they are, with no decoding and no copy
    // joined to a wrapper (the bundle is one already). Over 1 MB, Node keeps the string outside V8's heap.
    source: readFileSync(bundle, 'latin1'),
    filename: bundle,
    // Each bundle's caches are named after it: a command group's bundle (bundle.ts) keeps the others' caches.
    key: `${basename(bundle)}-${process.version}-${process.arch}-${built.size}-${Math.trunc(built.mtimeMs)}`,
    family: `${basename(bundle)}-`,
    cacheDir,
    command,
    require: bundleRequire(makeRequire),
  });
}

/**
 * Compiles one of bbdc's bundled scripts (scripts/release/bundle.ts scriptOptions: a function of require, __filename
 * and __dirname that returns its exports) with compileCached, and runs it with `require` and `file` (its __filename;
 * `filename` by default): its exports, with `cache` and `save`. The checkout's bundles, the npm package's scripts and
 * the executables' assets all run through here.
 * @param {Parameters<typeof compileCached>[0] & { require: (id: string) => unknown, file?: string }} o
 * @returns {{ exports: unknown, cache: 'none' | 'accepted' | 'rejected', save(): boolean }}
 */
function runScript({ require, file, ...compile }) {
  const { script, cache, save } = compileCached(compile);
  const path = file ?? compile.filename;
  return { exports: script.runInThisContext()(require, path, dirname(path)), cache, save };
}

/**
 * Writes a run's code cache at exit (`save`, compileCached) when the command ran and succeeded: the first cache a
 * command gets is kept while V8 accepts it, and a run that printed help, stopped at a mistyped command or flag, or
 * failed compiled other functions than the command's work (and a mistyped command would take one of the
 * maxCachedCommands places).
 * @param {() => boolean} save
 * @param {string[]} args the command line
 */
function saveAtExit(save, args) {
  if (args.includes('--help') || args.includes('-h')) return;
  process.once('exit', (code) => {
    if (code === 0) save();
  });
}

/**
 * A bundle's require(): Node's modules from process.getBuiltinModule, anything else (an npm package) from the
 * require `makeRequire` gives, made on the first package. A command that needs no package (pr get) so loads neither
 * node:module nor Node's module resolution. The checkout's bundles and the executables' scripts both run with it.
 * @param {() => (id: string) => unknown} makeRequire
 * @returns {(id: string) => unknown}
 */
function bundleRequire(makeRequire) {
  /** @type {((id: string) => unknown) | undefined} */
  let requirePackage;
  return (id) => {
    const builtin = process.getBuiltinModule(id);
    if (builtin) return builtin;
    requirePackage ??= makeRequire();
    return requirePackage(id);
  };
}

/**
 * Compiles `source` with the code cache `cacheDir` keeps for `command` under `key` (else `fallback`, a cache made at
 * build time). One cache a command: V8 reads a whole cache at each start, and one that gathered every command's
 * functions made each command read all of them (pr get after repo list: 201 -> 196 million instructions, callgrind,
 * medians of 3). `save` writes the command's cache when it had none (the oldest written making room past
 * maxCachedCommands) or V8 refused it (another Node, a damaged file); it is meant for the end of the run, when the
 * command's functions are compiled.
 * Files of `family` (all when not given) but another key are removed: another build's or another Node's.
 * A cache that cannot be read or written costs only time. Without `cacheDir` (no home directory), or with
 * NODE_DISABLE_COMPILE_CACHE=1 (Node's variable, which bbdc's own cache honours too), only `fallback` is read.
 * @param {{ source: string, filename: string, key: string, family?: string, cacheDir: string | undefined, command: string, fallback?: Buffer }} o
 */
function compileCached({ source, filename, key, family = '', cacheDir, command, fallback }) {
  const { Script } = process.getBuiltinModule('node:vm');
  const enabled = cacheDir !== undefined && process.env.NODE_DISABLE_COMPILE_CACHE !== '1';
  const cacheFile = `${cacheDir}/${key}.${command.replaceAll(' ', '-') || 'bbdc'}.cache`;
  let own;
  try {
    own = enabled ? readFileSync(cacheFile) : undefined;
  } catch {
    own = undefined;
  }
  const hadOwn = own !== undefined;
  // The bundles hold no import(): a vm.Script cannot run one without an experimental loader (bundle.ts).
  const script = new Script(source, { filename, cachedData: own ?? fallback });
  const cache =
    (own ?? fallback) === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted';
  // V8 has read the cache: `save` below must not keep the file's bytes (about 400 KB) alive for the whole run.
  own = undefined;
  const save = () => {
    if (!enabled || (hadOwn && cache === 'accepted')) return false;
    try {
      mkdirSync(cacheDir, { recursive: true });
      /** @type {string[]} */
      const others = [];
      for (const f of readdirSync(cacheDir)) {
        // Another build's or another Node's files are of no more use, nor are those of an older layout of the
        // directory, which name no script (every cache is named after its script, `bbdc.pr.cjs-…`; the executable's
        // one-script caches were `0.1.0-v24…`, the checkout's whole-bundle cache `v24…`).
        if (!f.startsWith(`${key}.`) && (f.startsWith(family) || !f.includes('.cjs-')))
          rmSync(`${cacheDir}/${f}`, { force: true });
        else if (f.endsWith('.cache') && `${cacheDir}/${f}` !== cacheFile) others.push(`${cacheDir}/${f}`);
      }
      // Room for this one: the oldest written go (a statSync each, only in a run that writes a cache).
      if (others.length >= maxCachedCommands) {
        const byAge = others
          .map((f) => ({ f, written: statSync(f, { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
          .sort((a, b) => a.written - b.written);
        for (const { f } of byAge.slice(0, others.length - maxCachedCommands + 1)) rmSync(f, { force: true });
      }
      // Written aside and renamed: a run starting meanwhile reads the old cache or the new one, never half of one.
      const tmp = `${cacheFile}.${process.pid}`;
      writeFileSync(tmp, script.createCachedData());
      renameSync(tmp, cacheFile);
      return true;
    } catch {
      return false;
    }
  };
  return { script, cache, save };
}

module.exports = {
  requireNode,
  cacheHome,
  compileCacheDir,
  enableCompileCache,
  freshBundle,
  maxCachedCommands,
  commandWords,
  commandOf,
  listName,
  runBundle,
  runScript,
  saveAtExit,
  bundleRequire,
  compileCached,
};
