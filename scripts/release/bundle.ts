// esbuild bundles of bbdc: the checkout's (one CommonJS file, and one a command group), and the scripts of the npm
// package and of the single-executable applications (a launcher, bbdc's code, the npm packages it requires).
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { basename, join, posix } from 'node:path';
import { build, type Metafile, type Plugin } from 'esbuild';

const root = join(import.meta.dirname, '..', '..');
// The OS keyring binding is a native addon: the npm package depends on it, the executables use the file store.
const external = ['@napi-rs/keyring'];

/**
 * Bundles the npm package's code into `outdir`: the same three scripts as a single executable's (bundleScripts), the
 * launcher `main.cjs` (the package's bin) reading the other two from files beside it. Until 2026-11-27 the package
 * was a code-split ES module build on Node's compile cache, which keeps only each module's top level: `pr get` took
 * 62-65 ms of CPU against 44-47 from the checkout's bundle (perf stat, 30 runs each).
 */
export async function bundleForNpm(outdir: string, version: string): Promise<SeaScripts> {
  return bundleScripts(outdir, version, 'files');
}

/** Where `npm run build` writes the checkout's bundle of bbdc (bin/bbdc.js runs it while it is fresh). */
export const checkoutBundleDir = join(root, 'dist', 'bbdc');

/**
 * Bundles bbdc's own code (src/, generated/) for the checkout into `outDir`: the same scripts as the packages' (bbdc.cjs
 * and one a command group, ownScripts), with the npm packages left to node_modules, and one list a command of the
 * inputs it can run with their sizes (`inputs.pr.get.json`, and `inputs.json` for the whole bundle), which
 * bin/bbdc.js compares (start-up.js freshBundle) to run a bundle only while none of them changed. One script instead
 * of 50 ES modules saves about 12 ms of CPU per run; esbuild wraps each module in a function that runs on first use,
 * so a command still initialises only the code it needs, and CommonJS keeps a require() of a package or of a Node
 * module (child_process, readline) inside the function that needs it, where an ES import would be hoisted. The
 * version is read from package.json as the sources read it, so a new version needs no new bundle. Returns the whole
 * bundle's path.
 */
export async function bundleForCheckout(outDir = checkoutBundleDir): Promise<string> {
  const { bundle, whole, groups } = await ownScripts(outDir);
  // A command's list is a file of its own: bin/bbdc.js parses only the one it needs (pr get's 62 inputs, 3 KB, where
  // the pr group's list of every command's inputs was 16 KB).
  for (const f of readdirSync(outDir)) if (/^inputs\..+\.json$/.test(f)) rmSync(join(outDir, f));
  const write = (name: string, list: { bundle: string; inputs: [string, number][] }) =>
    writeFileSync(join(outDir, name), `${JSON.stringify(list)}\n`);
  for (const g of groups)
    for (const [command, inputs] of Object.entries(commandInputs(g.metafile.inputs, g.only)))
      write(`inputs.${command.replaceAll(' ', '.')}.json`, {
        bundle: basename(g.bundle),
        inputs: sized(inputs),
      });
  write('inputs.json', { bundle: basename(bundle), inputs: sized(Object.keys(whole.inputs)) });
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

/** bbdc's own scripts in `outDir`: the whole of it (`bbdc.cjs`) and one a command group (groupBundles). */
async function ownScripts(outDir: string, version?: string) {
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
  return { bundle, whole, groups: await groupBundles(outDir, buildOwn) };
}

/** A group's bundle beside the whole one: `bbdc.pr.cjs` for the commands whose first word is `pr`. */
type GroupBundle = { group: string; bundle: string; metafile: Metafile; only: RegistryEntry[] };

/**
 * Builds one bundle a command group into `outDir` with `buildOne` (given the plugin that leaves the other groups'
 * commands out). A group none of whose modules reads the registry for more than names gets one; the others (ai mcp
 * serve's tools load every command) run the whole bundle, and theirs is removed.
 */
async function groupBundles(
  outDir: string,
  buildOne: (outfile: string, plugins: Plugin[]) => Promise<Metafile>,
): Promise<GroupBundle[]> {
  const entries = registryEntries();
  const groups = [...new Set(entries.map((e) => e.name.split(' ')[0]))];
  const built = await Promise.all(
    groups.map(async (group): Promise<GroupBundle | undefined> => {
      const bundle = join(outDir, `bbdc.${group}.cjs`);
      const only = entries.filter((e) => e.name.split(' ')[0] === group);
      const metafile = await buildOne(bundle, [onlyCommands(new Set(only.map((e) => e.name)))]);
      const readsRegistry = (f: string) =>
        !namesOnly.has(f) && metafile.inputs[f].imports.some((i) => i.path === 'src/bbdc/registry.ts');
      if (!Object.keys(metafile.inputs).some(readsRegistry)) return { group, bundle, metafile, only };
      rmSync(bundle, { force: true });
      return undefined;
    }),
  );
  return built.filter((g) => g !== undefined);
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
 * Each command's own inputs: every module main.ts reaches, through static and dynamic imports alike, with the
 * registry's edges to the other commands' modules left out. Only these can run when the command runs (esbuild
 * initialises a module on its first use, and another command's modules are reached only through the registry), so
 * bin/bbdc.js checks only these (start-up.js freshBundle): 62 files for `pr get` instead of the `pr` bundle's 136,
 * each a stat() at every start.
 */
function commandInputs(inputs: Metafile['inputs'], commands: RegistryEntry[]): Record<string, string[]> {
  const modules = new Set(commands.map((c) => c.module));
  const own: Record<string, string[]> = {};
  for (const c of commands) {
    const reached = new Set<string>();
    const visit = (file: string) => {
      if (reached.has(file) || !Object.hasOwn(inputs, file)) return;
      reached.add(file);
      for (const i of inputs[file].imports) {
        const otherCommand = file === 'src/bbdc/registry.ts' && modules.has(i.path) && i.path !== c.module;
        if (!otherCommand) visit(i.path);
      }
    };
    visit('src/bbdc/main.ts');
    own[c.name] = [...reached];
  }
  return own;
}

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
 * packages left out as in the checkout's bundle, beside it one bundle a command group (groupBundles),
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
  // As in the checkout, a command group's own script beside the whole one (bbdc.pr.cjs for pr get: 224 KB to read and
  // compile instead of 818).
  const { bundle, whole: own, groups: built } = await ownScripts(outDir, version);
  const groups = built.map((g) => g.bundle);
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
      BBDC_GROUPS: JSON.stringify(built.map((g) => g.group)),
    },
    // The npm package's bin: npm links it from its first line, which takes no flags (bin/bbdc.js says why).
    banner: { js: `${scripts === 'files' ? '#!/usr/bin/env node\n' : ''}${prelude}` },
    logLevel: 'error',
  });
  return { main, bundle, packages, groups };
}
