// esbuild bundles of bbdc for the npm package and the single executables, which launcher.ts runs: bbdc's own code
// once for each command group (`bbdc-pr.cjs`: the `pr` commands only) and whole (`bbdc.cjs`: top-level help, an
// unknown word, and the groups whose commands load every command, such as `ai mcp serve`), and the npm packages that
// code requires (`bbdc-packages.cjs`, loaded at the first one a command requires). The command groups are read from
// the registry itself (src/bbdc/registry.ts), imported here as a module.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, sep } from 'node:path';
import { type BuildOptions, build, type Plugin } from 'esbuild';
import { registry } from '../../src/bbdc/registry.ts';

const root = join(import.meta.dirname, '..', '..');
// The OS keyring binding is a native addon: the npm package depends on it, the executables use the file store.
const external = ['@napi-rs/keyring'];
/** The script of the npm packages, required by bbdc's scripts beside it (launcher.ts resolves it in an executable). */
export const packagesScript = 'bbdc-packages.cjs';

/** What launcher.ts runs: `main` (the launcher) and the scripts it loads, each named after its file. */
export type Bundles = { main: string; scripts: string[] };

/** A command's group: its first word (`pr` of `pr get`). Its module lives in src/bbdc/commands/<group>(.ts|/). */
const groupOf = (command: string) => command.split(' ')[0];

/** The commit being built, for `bbdc --version`; undefined outside a git checkout. */
function buildCommit(): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: 'pipe' }).trim();
  } catch {
    return undefined;
  }
}

/**
 * Bundles bbdc into `outDir` for the npm package (`npm`: the launcher `main.cjs` is the package's bin) or a single
 * executable (`sea`: every script becomes an asset), with `version` built in. `prelude` is CommonJS code the launcher
 * runs first (the startup benchmark's rusage probe: an executable ignores NODE_OPTIONS).
 */
export async function bundleBbdc(
  outDir: string,
  version: string,
  kind: 'npm' | 'sea',
  prelude = '',
): Promise<Bundles> {
  const packages = new Set<string>();
  const stamp = {
    BBDC_BUILD_VERSION: JSON.stringify(version),
    BBDC_BUILD_COMMIT: JSON.stringify(buildCommit()) ?? 'undefined',
  };
  // An executable's scripts are functions of the CommonJS wrapper's arguments (launcher.ts seaRequire).
  const wrapper =
    kind === 'sea'
      ? {
          banner: { js: '(function (exports, require, module, __filename, __dirname) {' },
          footer: { js: '})' },
        }
      : {};
  const own = (outfile: string, plugins: Plugin[] = []) =>
    build({
      ...common,
      ...wrapper,
      entryPoints: [join(root, 'src', 'bbdc', 'main.ts')],
      outfile,
      metafile: true,
      plugins: [fromPackagesScript(packages), ...plugins],
      define: stamp,
    });
  const groups = [...new Set(registry.map((e) => groupOf(e.name)))];
  const built = await Promise.all(
    groups.map(async (group) => {
      const file = join(outDir, `bbdc-${group}.cjs`);
      const { metafile } = await own(file, [onlyGroup(group)]);
      // A group whose own modules read the registry for more than names (ai mcp serve loads every command) runs the
      // whole bundle; cli/run.ts and cli/help.ts read names and group titles only.
      const reader = Object.entries(metafile.inputs).find(
        ([f, input]) => !namesOnly.has(f) && input.imports.some((i) => i.path === 'src/bbdc/registry.ts'),
      );
      if (!reader) return { group, file };
      rmSync(file);
      return undefined;
    }),
  );
  const groupBundles = built.filter((b) => b !== undefined);
  const whole = join(outDir, 'bbdc.cjs');
  await own(whole);
  const packagesFile = join(outDir, packagesScript);
  await build({
    ...common,
    ...wrapper,
    stdin: {
      contents: `module.exports = {${[...packages]
        .sort()
        .map((s) => `${JSON.stringify(s)}: () => require(${JSON.stringify(s)})`)
        .join(',\n')}};`,
      resolveDir: root,
      sourcefile: packagesScript,
    },
    outfile: packagesFile,
  });
  const main = join(outDir, 'main.cjs');
  await build({
    ...common,
    minifyWhitespace: false,
    entryPoints: [join(import.meta.dirname, 'launcher.ts')],
    outfile: main,
    define: {
      ...stamp,
      BBDC_HELP_TEXT: JSON.stringify(readFileSync(join(root, 'generated', 'bbdc', 'help.txt'), 'utf8')),
      BBDC_SEA: String(kind === 'sea'),
      BBDC_GROUPS: JSON.stringify(groupBundles.map((b) => b.group)),
    },
    // npm links the bin and writes Windows shims from this line.
    banner: { js: `${kind === 'npm' ? '#!/usr/bin/env node\n' : ''}${prelude}` },
  });
  return { main, scripts: [whole, ...groupBundles.map((b) => b.file), packagesFile] };
}

const common = {
  absWorkingDir: root,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node22',
  external: [...external, `./${packagesScript}`],
  // import() becomes require(): an executable's scripts are compiled functions, which cannot import().
  supported: { 'dynamic-import': false },
  minifySyntax: true,
  // Names stay, so that stack traces still name functions.
  minifyWhitespace: true,
  legalComments: 'none',
  logLevel: 'error',
} satisfies BuildOptions;

/** Modules that read the registry's names and group titles only. */
const namesOnly = new Set(['src/bbdc/registry.ts', 'src/bbdc/cli/run.ts', 'src/bbdc/cli/help.ts']);

/**
 * Every npm package bbdc's code requires (`yaml`) becomes `require('./bbdc-packages.cjs').yaml()`, and is added to
 * `packages`: one script holds them all, compiled only when a command first needs one.
 */
function fromPackagesScript(packages: Set<string>): Plugin {
  return {
    name: 'from-packages-script',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, ({ path }) => {
        if (isBuiltin(path) || external.includes(path)) return undefined;
        packages.add(path);
        return { path, namespace: 'bbdc-package' };
      });
      b.onLoad({ filter: /.*/, namespace: 'bbdc-package' }, ({ path }) => ({
        contents: `module.exports = require(${JSON.stringify(`./${packagesScript}`)})[${JSON.stringify(path)}]();`,
        loader: 'js',
      }));
    },
  };
}

/**
 * Leaves the other groups' commands out of `group`'s bundle: the registry's imports of their modules load an empty
 * module, and the command manifest keeps the group's rows (help and "did you mean" within the group read it). The
 * launcher runs the bundle only for the group's commands. Fails the build when a module of the group's commands is
 * not where groupOf says.
 */
function onlyGroup(group: string): Plugin {
  const registryFile = join(root, 'src', 'bbdc', 'registry.ts');
  const commandsDir = join(root, 'src', 'bbdc', 'commands') + sep;
  const expected = registry.filter((e) => groupOf(e.name) === group).length;
  return {
    name: 'only-group',
    setup(b) {
      let kept = 0;
      b.onResolve({ filter: /^\.\/commands\// }, async (args) => {
        if (args.importer !== registryFile) return undefined;
        const resolved = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir });
        const [top] = resolved.path.slice(commandsDir.length).split(/[\\/]/);
        if (top.replace(/\.ts$/, '') !== group) return { path: 'other-group', namespace: 'bbdc-other-group' };
        kept++;
        return resolved;
      });
      b.onLoad({ filter: /.*/, namespace: 'bbdc-other-group' }, () => ({ contents: '', loader: 'js' }));
      b.onLoad({ filter: /[\\/]generated[\\/]bbdc[\\/]commands\.json$/ }, ({ path }) => {
        const manifest = JSON.parse(readFileSync(path, 'utf8')) as { commands: { name: string }[] };
        const commands = manifest.commands.filter((c) => groupOf(c.name) === group);
        return { loader: 'json', contents: JSON.stringify({ ...manifest, commands }) };
      });
      b.onEnd(() => {
        if (kept !== expected)
          throw new Error(
            `the bundle of the ${group} commands holds ${kept} of their ${expected} modules: a command's module must be src/bbdc/commands/${group}.ts or under src/bbdc/commands/${group}/`,
          );
      });
    },
  };
}
