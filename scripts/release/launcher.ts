// The main script of the bundled bbdc: the single executable's, and the npm package's bin (dist/main.cjs). `--version`
// and `--help` are answered from constants, so they cost what a bare Node start costs; anything else compiles bbdc's
// code (the command's own bundle in the npm package, bbdc.pr.get.cjs for pr get, its group's in an executable,
// bbdc.pr.cjs, else the whole bbdc.cjs) and, when a command first
// requires an npm package, the packages (bbdc.packages.cjs, a script of its own: bundle.ts bundleScripts says why).
// An executable holds the scripts as assets, each with the V8 code cache made at build time when it matches this
// binary (V8 refuses a foreign cache; bbdc then compiles without it); the npm package holds them as files beside this
// one. Either way the user's code cache (bin/start-up.js compileCached) gets the functions each command runs.
import {
  bundleRequire,
  cacheHome,
  commandOf,
  listName,
  requireNode,
  runScript,
  saveAtExit,
} from '../../bin/start-up.js';

declare const BBDC_BUILD_VERSION: string;
declare const BBDC_HELP_TEXT: string;
/** Where the scripts are: the executable's assets, or files beside this script (bundle.ts sets it). */
declare const BBDC_SCRIPTS: 'sea' | 'files';
/** The commands (`pr.get`) or command groups (`pr`) with a bundle of their own, `bbdc.<key>.cjs` (bundle.ts). */
declare const BBDC_BUNDLES: string[];
/** Every command's name, each between two newlines (`\npr get\n`): a string to search, nothing to parse. */
declare const BBDC_COMMANDS: string;

/**
 * A script's text and the code cache made at build time for it, if any. esbuild writes ASCII (its default charset):
 * latin1 reads the bytes as they are, into a string Node keeps outside V8's heap when over 1 MB.
 */
type ScriptText = { source: string; fallback?: Buffer; filename: string };

/** The npm package's script `name`, a file beside this one. */
function readFile(name: string): ScriptText {
  const filename = `${__dirname}/${name}`;
  return { source: process.getBuiltinModule('node:fs').readFileSync(filename, 'latin1'), filename };
}

/** The executable's asset `name` and the code cache made at build time for it, if any. */
function readAsset(name: string): ScriptText {
  // getRawAsset, not getAsset: the executable's own bytes, not a copy (V8 only reads a cache).
  const { getRawAsset } = process.getBuiltinModule('node:sea');
  let fallback: Buffer | undefined;
  try {
    fallback = Buffer.from(getRawAsset(name.replace(/\.cjs$/, '.cache')));
  } catch {
    // built without a code cache (another platform's executable)
  }
  return { source: Buffer.from(getRawAsset(name)).toString('latin1'), fallback, filename: name };
}

// The build keeps only the one it uses.
const readScript = BBDC_SCRIPTS === 'files' ? readFile : readAsset;

// The npm package runs on the user's Node: an older one than package.json's engines gets one line, not a stack trace
// (an executable brings its own).
if (BBDC_SCRIPTS === 'files') requireNode('bbdc');
const args = process.argv.slice(2);
if (args.length === 1 && args[0] === '--version') {
  process.stdout.write(`bbdc ${BBDC_BUILD_VERSION}\n`);
} else if (args.length === 0 || (args.length === 1 && (args[0] === '--help' || args[0] === '-h'))) {
  process.stdout.write(BBDC_HELP_TEXT.replace('{{version}}', BBDC_BUILD_VERSION));
} else {
  const command = commandOf(args, (c) => BBDC_COMMANDS.includes(`\n${c}\n`));
  // The same cache home as the checkout's (start-up.js cacheHome); none without a home directory.
  const home = cacheHome();
  const cacheDir = home && `${home}/${BBDC_SCRIPTS === 'sea' ? 'executable' : 'package'}`;
  /** Compiles the script `name` (bundle.ts bundleScripts) and runs it with `req` (start-up.js runScript): its exports. */
  const run = (name: string, req: (id: string) => unknown) => {
    const { source, fallback, filename } = readScript(name);
    const loaded = runScript({
      source,
      filename,
      key: `${name}-${BBDC_BUILD_VERSION}-${process.version}-${process.arch}-${source.length}`,
      // Each script's caches are named after it: one's save keeps the other's.
      family: `${name}-`,
      cacheDir,
      command,
      fallback,
      require: req,
      // An asset's __filename is the executable's.
      file: BBDC_SCRIPTS === 'sea' ? process.execPath : undefined,
    });
    saveAtExit(loaded.save, args);
    return loaded.exports;
  };
  // bbdc's require (start-up.js bundleRequire): a package from bbdc.packages.cjs, compiled on the first one.
  const bbdcRequire = bundleRequire(() => {
    const packages = run('bbdc.packages.cjs', require) as Record<string, () => unknown>;
    // A package the bundle lacks (the keyring addon): the npm package's dependency, Node's error in an executable.
    return (id) => (Object.hasOwn(packages, id) ? packages[id]() : require(id));
  });
  // The command's own bundle (npm package), else its group's (`pr` of `pr get`: executable), else the whole of bbdc.
  const key = [listName(command), command.split(' ')[0]].find((k) => BBDC_BUNDLES.includes(k));
  const { main } = run(key ? `bbdc.${key}.cjs` : 'bbdc.cjs', bbdcRequire) as {
    main(argv: string[]): Promise<number>;
  };
  main(args).then((code) => {
    process.exitCode = code;
  });
}
