// esbuild bundles of bbdc, all made as one kind of script (scriptOptions): the checkout's (the whole, and one a
// command), and those of the npm package and of the single-executable applications (a launcher, bbdc's code whole and
// one a command in the npm package, one a command group in an executable, the npm packages it requires).
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { basename, join, posix } from 'node:path';
import { build, type Metafile, type Plugin } from 'esbuild';
import { listName } from '../../bin/start-up.js';

const root = join(import.meta.dirname, '..', '..');
// The OS keyring binding is a native addon: the npm package depends on it, the executables use the file store.
const external = ['@napi-rs/keyring'];

/**
 * Bundles the npm package's code into `outdir`: the scripts of a single executable (bundleScripts), but one a command
 * where an executable has one a command group, the launcher `main.cjs` (the package's bin) reading them from files
 * beside it. Until 2026-11-27 the package
 * was a code-split ES module build on Node's compile cache, which keeps only each module's top level: `pr get` took
 * 62-65 ms of CPU against 44-47 from the checkout's bundle (perf stat, 30 runs each).
 */
export async function bundleForNpm(outdir: string, version: string): Promise<SeaScripts> {
  return bundleScripts(outdir, version, 'files');
}

/** Where `npm run build` writes the checkout's bundle of bbdc (bin/bbdc.js runs it while it is fresh). */
export const checkoutBundleDir = join(root, 'dist', 'bbdc');

/**
 * Bundles bbdc's own code (src/, generated/) for the checkout into `outDir`, as the packages' scripts are made
 * (scriptOptions) with the npm packages left to node_modules: the whole of bbdc (`bbdc.cjs`), and one bundle a
 * command (`bbdc.pr.get.cjs`), as the npm package has (an executable has one a command group). Each is listed with its inputs and their
 * sizes (`inputs.pr.get.json`, `inputs.json` for the whole), which bin/bbdc.js compares (start-up.js freshBundle) to
 * run a bundle only while none of them changed. One script instead of 50 ES modules saves about 12 ms of CPU per run;
 * esbuild wraps each module in a function that runs on first use, so a command still initialises only the code it
 * needs, and CommonJS keeps a require() of a package or of a Node module (child_process, readline) inside the function
 * that needs it, where an ES import would be hoisted. A command's own bundle rather than its group's: V8 reads every
 * function of a script it loads from a code cache, and `pr get` from bbdc.pr.get.cjs (92 KB) runs 3.2 million fewer
 * instructions and takes 116 fewer page faults than from bbdc.pr.cjs (225 KB; callgrind, perf stat). That is 229
 * bundles, about 23 MB, built in about 4 s; a checkout's disk, not a download. The version is read from package.json
 * as the sources read it, so a new version needs no new bundle. Returns the whole bundle's path.
 */
export async function bundleForCheckout(outDir = checkoutBundleDir): Promise<string> {
  // Another build's bundles and lists (one a group, before 2026-11-28) would be left beside these.
  mkdirSync(outDir, { recursive: true });
  for (const f of readdirSync(outDir)) if (/^(bbdc|inputs)\..+\.(cjs|json)$/.test(f)) rmSync(join(outDir, f));
  const { bundle, whole, split } = await ownScripts(outDir, listName);
  // A command's list is a file of its own: bin/bbdc.js parses only the one it needs.
  const write = (name: string, script: string, metafile: Metafile) =>
    writeFileSync(
      join(outDir, name),
      `${JSON.stringify({ bundle: basename(script), inputs: sized(Object.keys(metafile.inputs)) })}\n`,
    );
  for (const b of split) write(`inputs.${b.key}.json`, b.bundle, b.metafile);
  write('inputs.json', bundle, whole);
  return bundle;
}

/**
 * The esbuild options of the scripts bbdc runs bundled, in the checkout and in the packages alike: CommonJS wrapped as
 * a function of (require, __filename, __dirname) that returns its exports (bbdc's own scripts: src/bbdc/main.ts's
 * `main`), which bin/bbdc.js and launcher.ts compile as a vm.Script with bbdc's own code cache (bin/start-up.js
 * runScript) and run with the require they resolve with. `version`, when given, is built in (the packages have no
 * package.json beside the code).
 */
function scriptOptions(version?: string) {
  return {
    absWorkingDir: root,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    external,
    minifySyntax: true,
    // import() becomes require() (Node 22.12+ requires ES modules too): a vm.Script cannot import() without an
    // experimental loader.
    supported: { 'dynamic-import': false },
    // Without whitespace the whole bundle is a quarter smaller (pr's 285 -> 224 KB), which V8 holds as source text and
    // reads at each start. Names stay, so stack traces still name functions (minifying identifiers too would save
    // more and lose them; BBDC_CHECKOUT_BUNDLE=0 runs the checkout's sources, with their lines).
    minifyWhitespace: true,
    legalComments: 'none',
    // A CommonJS script has no import.meta: version.ts reads it (when no version is built in), and its url only then.
    define: {
      ...(version !== undefined && { BBDC_BUILD_VERSION: JSON.stringify(version) }),
      'import.meta': '__bbdcImportMeta',
    },
    banner: {
      js: "(function (require, __filename, __dirname) { const module = { exports: {} }; const exports = module.exports; const __bbdcImportMeta = { get url() { return require('node:url').pathToFileURL(__filename).href; }, dirname: __dirname, filename: __filename };",
    },
    footer: { js: 'return module.exports; })' },
    logLevel: 'error',
  } as const;
}

/**
 * bbdc's own scripts in `outDir`: the whole of it (`bbdc.cjs`), and one for each key `keyOf` gives a command
 * (splitBundles); `version` built in when given.
 */
async function ownScripts(outDir: string, keyOf: (command: string) => string, version?: string) {
  const main = join(root, 'src', 'bbdc', 'main.ts');
  const buildOwn = async (outfile: string, plugins: Plugin[] = []) =>
    (
      await build({
        ...scriptOptions(version),
        entryPoints: [main],
        packages: 'external',
        metafile: true,
        outfile,
        plugins,
      })
    ).metafile;
  const bundle = join(outDir, 'bbdc.cjs');
  const whole = await buildOwn(bundle);
  return { bundle, whole, split: await splitBundles(outDir, buildOwn, keyOf) };
}

/** A bundle beside the whole one, of the commands `key` names: `bbdc.pr.cjs` (a group), `bbdc.pr.get.cjs` (one). */
type SplitBundle = { key: string; bundle: string; metafile: Metafile };

/**
 * Builds one bundle for each key `keyOf` gives a command (its group, `pr`, or the command itself, `pr.get`: words
 * that are [a-z-], so the key is a file name) into `outDir` with `buildOne`, given the plugin that leaves the other
 * keys' commands out. A key none of whose modules reads the registry for more than names gets one; the others (ai mcp
 * serve's tools load every command) run the whole bundle, and theirs is removed.
 */
async function splitBundles(
  outDir: string,
  buildOne: (outfile: string, plugins: Plugin[]) => Promise<Metafile>,
  keyOf: (command: string) => string,
): Promise<SplitBundle[]> {
  const entries = registryEntries();
  const keys = [...new Set(entries.map((e) => keyOf(e.name)))];
  const built = await Promise.all(
    keys.map(async (key): Promise<SplitBundle | undefined> => {
      const bundle = join(outDir, `bbdc.${key}.cjs`);
      const only = entries.filter((e) => keyOf(e.name) === key);
      const metafile = await buildOne(bundle, [onlyCommands(new Set(only.map((e) => e.name)))]);
      const readsRegistry = (f: string) =>
        !namesOnly.has(f) && metafile.inputs[f].imports.some((i) => i.path === 'src/bbdc/registry.ts');
      if (!Object.keys(metafile.inputs).some(readsRegistry)) return { key, bundle, metafile };
      rmSync(bundle, { force: true });
      return undefined;
    }),
  );
  return built.filter((b) => b !== undefined);
}

const registryFile = join(root, 'src', 'bbdc', 'registry.ts');
// A registry line, `entry('pr get', () => import(<the command's module>))`, however it is wrapped.
const registryEntry = /entry\(\s*'([^']+)',\s*\(\)\s*=>\s*import\('([^']+)'\)\s*,?\s*\)/g;
/** A command of the registry: its name and its module, as esbuild names inputs (`src/bbdc/commands/pr/get.ts`). */
type RegistryEntry = { name: string; module: string };
const registryEntries = (): RegistryEntry[] =>
  [...readFileSync(registryFile, 'utf8').matchAll(registryEntry)].map((m) => ({
    name: m[1],
    module: posix.join('src/bbdc', m[2]),
  }));
// Besides the registry itself, only these read it, for the names and the command that runs (cli/run.ts).
const namesOnly = new Set(['src/bbdc/registry.ts', 'src/bbdc/cli/run.ts', 'src/bbdc/cli/help.ts']);

/** Files (esbuild's input paths) with their sizes, sorted by path. */
const sized = (files: string[]): [path: string, size: number][] =>
  [...files].sort().map((f) => [f, statSync(join(root, f)).size]);

/**
 * The registry and the command manifest with only `names`: the others' modules stay out of the bundle. A group's
 * bundle runs only when the command line's first word is the group (bin/bbdc.js), so its commands' names are all
 * that splitting the command line, help and "did you mean" within the group read. The whole manifest is a 208 KB
 * object literal, two fifths of `pr`'s bundle, read at each start; the registry's 188 other rows were a function
 * and a message each in the bundle's code cache, which V8 reads whole at each start (pr get's 215 -> 189 KB).
 */
function onlyCommands(names: Set<string>): Plugin {
  return {
    name: 'only-commands',
    setup(b) {
      b.onLoad({ filter: /[\\/]generated[\\/]bbdc[\\/]commands\.json$/ }, (args) => {
        const manifest = JSON.parse(readFileSync(args.path, 'utf8')) as { commands: { name: string }[] };
        return {
          loader: 'json',
          contents: JSON.stringify({
            ...manifest,
            commands: manifest.commands.filter((c) => names.has(c.name)),
          }),
        };
      });
      b.onLoad({ filter: /[\\/]src[\\/]bbdc[\\/]registry\.ts$/ }, (args) => ({
        loader: 'ts',
        // A row goes with its comma, so that the array literal keeps no hole.
        contents: readFileSync(args.path, 'utf8').replace(
          new RegExp(`${registryEntry.source},?`, 'g'),
          (row, name: string) => (names.has(name) ? row : ''),
        ),
      }));
    },
  };
}

/**
 * What a single executable is made of: its main script (the launcher) and the scripts it compiles, bbdc's own code
 * (`bbdc.cjs`, and one bundle a command group, `bbdc.pr.cjs`) and the npm packages that code requires
 * (`bbdc.packages.cjs`), each an asset named after its file.
 */
export type SeaScripts = { main: string; bundle: string; packages?: string; groups?: string[] };

/**
 * Bundles bbdc for a Node single-executable application: `bbdc.cjs`, bbdc's own code (src/, generated/) with the npm
 * packages left out as in the checkout's bundle, beside it one bundle a command group (splitBundles),
 * `bbdc.packages.cjs`, those packages, each initialised on its first require, and `main.cjs`, the launcher that answers
 * --version and --help itself and compiles the command's group bundle (else `bbdc.cjs`) for anything else, and
 * `bbdc.packages.cjs` when a command first requires a package (launcher.ts).
 * V8 reads a whole code cache at each start, and a script's top level registers every module it holds: from one
 * script with the packages' 430 modules beside bbdc's 390, pr get (which requires no package) read a 647 KB cache
 * and ran 205 million instructions (callgrind), 43.3 ms of CPU; from bbdc.cjs alone, 175 million and 38.7 ms, and
 * repo list --limit 5000 peaks 3 MB lower (bench:cli startup's probe, medians of 15). The packages are required
 * whole rather than tree-shaken, which makes the executable 0.7 MB larger. `prelude` is CommonJS code the launcher
 * runs first (the startup benchmark's rusage probe, since an executable ignores NODE_OPTIONS).
 */
export function bundleForSea(outDir: string, version: string, prelude = ''): Promise<SeaScripts> {
  return bundleScripts(outDir, version, 'sea', prelude);
}

/** The scripts of bundleForSea, the launcher reading the others from the executable's assets or from files. */
async function bundleScripts(
  outDir: string,
  version: string,
  scripts: 'sea' | 'files',
  prelude = '',
): Promise<SeaScripts> {
  const packages = join(outDir, 'bbdc.packages.cjs');
  const main = join(outDir, 'main.cjs');
  // As in the checkout, a command's own script beside the whole one in the npm package (bbdc.pr.get.cjs for pr get: 92
  // KB to read and compile instead of 818); a command group's in an executable (bbdc.pr.cjs, 224 KB), where one a
  // command would add about 22 MB to every download and to every run's mapped file.
  const keyOf = scripts === 'files' ? listName : (command: string) => command.split(' ')[0];
  const { bundle, whole: own, split } = await ownScripts(outDir, keyOf, version);
  const groups = split.map((g) => g.bundle);
  // Every package specifier bbdc's code requires (`yaml`, `@modelcontextprotocol/sdk/server/mcp.js`), a loader each.
  const specifiers = new Set(
    Object.values(own.inputs).flatMap((input) =>
      input.imports
        .filter((i) => i.external && !isBuiltin(i.path) && !external.includes(i.path))
        .map((i) => i.path),
    ),
  );
  await build({
    ...scriptOptions(version),
    stdin: {
      contents: `module.exports = {${[...specifiers]
        .sort()
        .map((s) => `${JSON.stringify(s)}: () => require(${JSON.stringify(s)})`)
        .join(',\n')}};`,
      resolveDir: root,
      sourcefile: 'bbdc-packages.cjs',
    },
    outfile: packages,
  });
  const help = readFileSync(join(root, 'generated', 'bbdc', 'help.txt'), 'utf8');
  await build({
    absWorkingDir: root,
    entryPoints: [join(import.meta.dirname, 'launcher.ts')],
    outfile: main,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    // Folds BBDC_SCRIPTS: the other way of reading the scripts is left out.
    minifySyntax: true,
    define: {
      BBDC_BUILD_VERSION: JSON.stringify(version),
      BBDC_HELP_TEXT: JSON.stringify(help),
      BBDC_SCRIPTS: JSON.stringify(scripts),
      BBDC_BUNDLES: JSON.stringify(split.map((g) => g.key)),
      BBDC_COMMANDS: JSON.stringify(
        `\n${registryEntries()
          .map((e) => e.name)
          .join('\n')}\n`,
      ),
    },
    // The npm package's bin: npm links it, and on Windows writes shims that run what its first line names, so that
    // line is node's, without flags (bin/bbdc.js says why).
    banner: { js: `${scripts === 'files' ? '#!/usr/bin/env node\n' : ''}${prelude}` },
    logLevel: 'error',
  });
  return { main, bundle, packages, groups };
}
