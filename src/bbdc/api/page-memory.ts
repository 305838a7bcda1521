// V8's memory while a list streams (api/paging.ts streamPages). Measured with bench:cli startup.

/**
 * Sets two V8 flags for a list of several pages until the returned function is called:
 * - `--semi-space-growth-factor=1`: V8's young generation stays at its size. Each item is garbage as soon as it is
 *   written, and so many young collections make V8 grow it from 4 to 16 MB.
 * - `--no-turbofan`: the byte loop that finds each item (page-scanner.ts skip) is hot enough for V8's optimising
 *   compiler, and the first TurboFan compilation of a process costs about 5 MB of peak RSS (the compiler's code and
 *   memory; nothing else in a bbdc run reaches it). The list runs on Maglev's code instead, for about the same CPU.
 * `repo list --limit 5000 --json` (medians of 4, without the bench's probe): 65.2 MB with the growth factor only,
 * 64.5 with TurboFan's flag only, 59.8 with both; 93 -> 90 ms of CPU without TurboFan. Node flags on the command
 * line would do the same for every command, but bbdc's portable shebang cannot carry them (bin/bbdc.js); V8 reads
 * both at run time (the growth factor at each collection, TurboFan's at each decision to optimise).
 * Set only for the list and set back after it: V8 refuses a code cache, Node's own included, made under another flag
 * set, and bbdc writes its code cache at exit (bin/start-up.js runBundle).
 */
export function holdListFlags(): () => void {
  // Lists may stream side by side (the MCP server): the flags go back when the last of them ends.
  let held = false;
  try {
    if (holds === 0) process.getBuiltinModule('node:v8').setFlagsFromString(listFlags);
    holds++;
    held = true;
  } catch {
    // a runtime without V8's flags
  }
  return () => {
    if (!held) return;
    held = false;
    if (--holds === 0) process.getBuiltinModule('node:v8').setFlagsFromString(defaultFlags);
  };
}
let holds = 0;
const listFlags = '--semi-space-growth-factor=1 --no-turbofan';
// V8's defaults.
const defaultFlags = '--semi-space-growth-factor=2 --turbofan';
