// The entry point of bbdc's code in the bundled builds (bbdc.cjs of the npm package and the single executables),
// which launcher.ts compiles with bbdc's own code cache: Node's module compile cache would serve only the keyring
// addon's loader here, and is left off.
import { main } from '../../src/bbdc/main.ts';

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
