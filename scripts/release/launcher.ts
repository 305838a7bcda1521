// The main script of the bundled bbdc (bundle.ts): the npm package's bin (dist/main.cjs) and a single executable's.
// `--version` and `--help` are answered from constants; anything else runs the bundle of the command's group
// (`bbdc-pr.cjs` for `pr get`), else the whole of bbdc (`bbdc.cjs`). The npm package's bundles are files required
// with Node's module compile cache on (content-hashed and kept by Node, as TypeScript's CLI does); an executable's
// are assets, compiled with the code cache made for them when the executable was built (sea.ts).
import { requireNode } from '../../bin/start.js';

declare const BBDC_BUILD_VERSION: string;
declare const BBDC_BUILD_COMMIT: string | undefined;
declare const BBDC_HELP_TEXT: string;
/** Whether this is a single executable (its scripts are assets) or the npm package (files beside this one). */
declare const BBDC_SEA: boolean;
/** The command groups that have a bundle of their own. */
declare const BBDC_GROUPS: string[];

const assets = new Map<string, unknown>();

/**
 * An executable's require: Node's modules, and the scripts it holds as assets (`./bbdc-packages.cjs`), each a function
 * of the CommonJS wrapper's arguments (bundle.ts) compiled with the code cache sea.ts made for it, if any.
 */
function seaRequire(id: string): unknown {
  if (!id.startsWith('./')) return process.getBuiltinModule(id) ?? require(id);
  const name = id.slice(2);
  if (assets.has(name)) return assets.get(name);
  const { getAsset, getRawAsset } = process.getBuiltinModule('node:sea');
  let cachedData: Buffer | undefined;
  try {
    cachedData = Buffer.from(getRawAsset(`${name}.cache`));
  } catch {
    // built for another platform: no code cache
  }
  const script = new (process.getBuiltinModule('node:vm').Script)(getAsset(name, 'utf8'), {
    filename: name,
    cachedData,
  });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, seaRequire, module, process.execPath, process.execPath);
  assets.set(name, module.exports);
  return module.exports;
}

function start(args: string[]) {
  if (!BBDC_SEA) requireNode('bbdc');
  if (args.length === 1 && args[0] === '--version')
    return process.stdout.write(
      `bbdc ${BBDC_BUILD_VERSION}${BBDC_BUILD_COMMIT ? ` (commit ${BBDC_BUILD_COMMIT})` : ''}\n`,
    );
  if (args.length === 0 || (args.length === 1 && (args[0] === '--help' || args[0] === '-h')))
    return process.stdout.write(BBDC_HELP_TEXT.replace('{{version}}', BBDC_BUILD_VERSION));
  const script = `./${BBDC_GROUPS.includes(args[0]) ? `bbdc-${args[0]}` : 'bbdc'}.cjs`;
  if (!BBDC_SEA) process.getBuiltinModule('node:module').enableCompileCache?.();
  const { main } = (BBDC_SEA ? seaRequire(script) : require(script)) as {
    main(argv: string[]): Promise<number>;
  };
  return main(args).then((code) => {
    process.exitCode = code;
  });
}

start(process.argv.slice(2));
