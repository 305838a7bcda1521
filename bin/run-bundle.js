// Loads the checkout's bundle with bbdc's own V8 code cache. Node's compile cache keeps only what V8 compiles when a
// file is loaded (its top level), so every run compiled again each function its command runs. This cache is written
// at the end of a run instead, with those functions in it, one cache for each command this user runs (measured with
// callgrind for pr get: 205 -> 182 million instructions, about 10%).
// Plain CommonJS for the same reasons as start-up.js.

const { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } =
  process.getBuiltinModule('node:fs');
const { basename, dirname, join } = process.getBuiltinModule('node:path');

/** Past this many commands' caches no more are written (each is 250-450 KB). */
const maxCachedCommands = 24;

/**
 * The words that name a command (`pr get` of `pr get 1 --json`), read as far as they look like command names: a
 * label for the cache, never parsed.
 * @param {string[]} args
 */
function commandWords(args) {
  const words = [];
  for (const a of args.slice(0, 3)) {
    if (!/^[a-z][a-z-]*$/.test(a)) break;
    words.push(a);
  }
  return words.join(' ');
}

/**
 * Compiles and runs the CommonJS `bundle` as Node's loader would (exports, require, module, __filename, __dirname),
 * with the code cache kept in `cacheDir` for this bundle and this Node, and returns its exports with `cache` and
 * `save` (compileCached).
 * @param {string} bundle
 * @param {string} cacheDir
 * @param {string} command the words that name the command (`pr get`)
 */
function runBundle(bundle, cacheDir, command) {
  const built = statSync(bundle);
  const { script, cache, save } = compileCached({
    // The wrapper joined as bytes: Node then hands V8 the text as an external string, kept outside V8's heap. Joined
    // as strings, V8 held two 1 MB copies in its heap (the read one garbage until a full collection, which a short
    // run never makes): repo list --limit 5000 --json 62.3 -> 59.1 MB peak RSS; pr get within noise in CPU.
    source: Buffer.concat([
      Buffer.from('(function (exports, require, module, __filename, __dirname) {'),
      readFileSync(bundle),
      Buffer.from('\n})'),
    ]).toString('utf8'),
    filename: bundle,
    // Each bundle's caches are named after it: a command group's bundle (bundle.ts) keeps the others' caches.
    key: `${basename(bundle)}-${process.version}-${process.arch}-${built.size}-${Math.trunc(built.mtimeMs)}`,
    family: `${basename(bundle)}-`,
    cacheDir,
    command,
  });
  const loaded = { exports: {} };
  const requireFromBundle = process.getBuiltinModule('node:module').createRequire(bundle);
  script.runInThisContext()(loaded.exports, requireFromBundle, loaded, bundle, dirname(bundle));
  return { exports: loaded.exports, cache, save };
}

/**
 * Compiles `source` with the code cache `cacheDir` keeps for `command` under `key` (else `fallback`, a cache made at
 * build time). One cache a command: V8 reads a whole cache at each start, and one that gathered every command's
 * functions made each command read all of them (pr get after repo list: 201 -> 196 million instructions, callgrind,
 * medians of 3). `save` writes the command's cache when it had none (up to maxCachedCommands of them) or V8 refused
 * it (another Node, a damaged file); it is meant for the end of the run, when the command's functions are compiled.
 * Files of `family` (all when not given) but another key are removed: another build's or another Node's.
 * A cache that cannot be read or written costs only time.
 * @param {{ source: string, filename: string, key: string, family?: string, cacheDir: string, command: string, fallback?: Buffer }} o
 */
function compileCached({ source, filename, key, family = '', cacheDir, command, fallback }) {
  const { Script } = process.getBuiltinModule('node:vm');
  const cacheFile = join(cacheDir, `${key}.${command.replaceAll(' ', '-') || 'bbdc'}.cache`);
  let own;
  try {
    own = readFileSync(cacheFile);
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
    if (hadOwn && cache === 'accepted') return false;
    try {
      mkdirSync(cacheDir, { recursive: true });
      let caches = 0;
      for (const f of readdirSync(cacheDir)) {
        // Another build's or another Node's files are of no more use.
        if (!f.startsWith(`${key}.`)) {
          if (f.startsWith(family)) rmSync(join(cacheDir, f), { force: true });
        } else if (f.endsWith('.cache')) caches++;
      }
      if (!hadOwn && caches >= maxCachedCommands) return false;
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

module.exports = { maxCachedCommands, commandWords, runBundle, compileCached };
