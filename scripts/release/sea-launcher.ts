// The main script of the bbdc single executable. `--version` and `--help` are answered from constants, so they
// cost what a bare Node start costs; anything else compiles the bundled bbdc (an asset of the executable) with
// the V8 code cache made at build time, when it matches this binary (V8 refuses a foreign cache; bbdc then
// compiles without it).
import { join } from 'node:path';
import { getAsset } from 'node:sea';
import { Script } from 'node:vm';
import { commandWords, compileCached } from '../../bin/run-bundle.js';
import { compileCacheDir } from '../../bin/start-up.js';

declare const BBDC_BUILD_VERSION: string;
declare const BBDC_HELP_TEXT: string;

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === '--version') {
  process.stdout.write(`bbdc ${BBDC_BUILD_VERSION}\n`);
} else if (args.length === 0 || (args.length === 1 && (args[0] === '--help' || args[0] === '-h'))) {
  process.stdout.write(BBDC_HELP_TEXT.replace('{{version}}', BBDC_BUILD_VERSION));
} else {
  let fallback: Buffer | undefined;
  try {
    fallback = Buffer.from(getAsset('bbdc.cache'));
  } catch {
    // built without a code cache (another platform's executable)
  }
  const source = getAsset('bbdc.cjs', 'utf8');
  // The build's cache holds only the bundle's top level; the user's (bin/run-bundle.js) gets the functions each
  // command runs, written at the end of a run, in the same cache directory as the checkout's.
  const home = process.env.HOME || process.env.USERPROFILE || process.getBuiltinModule('node:os').homedir();
  const { script, save } =
    process.env.NODE_DISABLE_COMPILE_CACHE === '1'
      ? { script: new Script(source, { filename: 'bbdc.cjs', cachedData: fallback }), save: () => false }
      : compileCached({
          source,
          filename: 'bbdc.cjs',
          key: `${BBDC_BUILD_VERSION}-${process.version}-${process.arch}-${source.length}`,
          cacheDir: join(compileCacheDir(process.env, home, process.platform), 'executable'),
          command: commandWords(args),
          fallback,
        });
  process.once('exit', save);
  const run = script.runInThisContext() as (
    require: NodeJS.Require,
    filename: string,
    dirname: string,
  ) => void;
  run(require, process.execPath, process.execPath.replace(/[\\/][^\\/]*$/, ''));
}
