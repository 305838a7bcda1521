// The main script of the bbdc single executable. `--version` and `--help` are answered from constants, so they
// cost what a bare Node start costs; anything else compiles the bundled bbdc (an asset of the executable) with
// the V8 code cache made at build time, when it matches this binary (V8 refuses a foreign cache; bbdc then
// compiles without it).
import { getAsset } from 'node:sea';
import { Script } from 'node:vm';

declare const BBDC_BUILD_VERSION: string;
declare const BBDC_HELP_TEXT: string;

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === '--version') {
  process.stdout.write(`bbdc ${BBDC_BUILD_VERSION}\n`);
} else if (args.length === 0 || (args.length === 1 && (args[0] === '--help' || args[0] === '-h'))) {
  process.stdout.write(BBDC_HELP_TEXT.replace('{{version}}', BBDC_BUILD_VERSION));
} else {
  let cachedData: Buffer | undefined;
  try {
    cachedData = Buffer.from(getAsset('bbdc.cache'));
  } catch {
    // built without a code cache (another platform's executable)
  }
  const script = new Script(getAsset('bbdc.cjs', 'utf8'), { filename: 'bbdc.cjs', cachedData });
  const run = script.runInThisContext() as (
    require: NodeJS.Require,
    filename: string,
    dirname: string,
  ) => void;
  run(require, process.execPath, process.execPath.replace(/[\\/][^\\/]*$/, ''));
}
