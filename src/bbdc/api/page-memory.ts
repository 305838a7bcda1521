// V8's memory while a list streams page after page (api/paging.ts streamPages): the page written is collected while
// the next one is fetched, and the young generation is kept from growing. Measured with bench:cli startup.

/**
 * A full garbage collection while each page after a large one is fetched. A page of 1,000 items outlives a few
 * young-generation collections while it is written, so it ends in the old generation, which V8 collects only past its
 * own limit (about 12 MB here), so every page's garbage stays until then (with holdYoungGeneration below, `repo list
 * --limit 5000 --json` 67.4 -> 62.4 MB), for 5-8 ms of CPU a page.
 * V8 gives `gc` only to contexts made while --expose-gc is set, so the flag is set for the moment one is made and
 * taken back: on the command line it would cost every run (Node's own modules' code cache is refused under another
 * flag set: pr get 186 -> 249 million instructions), and a V8 code cache written while it is set would be refused
 * by the next run (bin/run-bundle.js writes one at exit).
 */
let gc: ((options: { type: 'major' }) => void) | null | undefined;
/** A smaller page is not worth a collection (5-8 ms each): only a page of at least this many items is collected. */
export const collectAfter = 100;
export function collectBetweenPages(): void {
  // A process started with --expose-gc (NODE_OPTIONS) has it: the flag is then left as it is.
  if (gc === undefined) gc = (globalThis as { gc?: typeof gc }).gc;
  if (gc === undefined) {
    try {
      const v8 = process.getBuiltinModule('node:v8');
      v8.setFlagsFromString('--expose-gc');
      try {
        gc = process.getBuiltinModule('node:vm').runInNewContext('gc') as typeof gc;
      } finally {
        v8.setFlagsFromString('--no-expose-gc');
      }
    } catch {
      gc = null; // a runtime without V8's flags: the garbage waits for V8
    }
  }
  gc?.({ type: 'major' });
}

/**
 * Keeps V8's young generation at the size it has (its semi-spaces stop growing) until the returned function is
 * called: while a list of several pages streams, V8 would grow it from 4 to 16 MB. With the collection between pages
 * this takes `repo list --limit 5000 --json` from 66.7 to 62.4 MB (human 69.4 -> 63.5; each alone gives under 1.5
 * MB). `--max-semi-space-size=1` would do better (60.4) but is a node flag, which bbdc's portable shebang cannot carry
 * (bin/bbdc.js) and which V8 reads only when it starts; the growth factor is read at each collection. Shrinking the
 * young generation first would need a last-resort collection (18% more instructions for the list), so it is not done.
 * Set only for the list and set back after it: V8 refuses a code cache, Node's own included, made under another flag
 * set, so node:v8 and node:vm are loaded first, and the cache bbdc writes at exit is made with the flags back.
 */
export function holdYoungGeneration(): () => void {
  // Lists may stream side by side (the MCP server): the factor goes back when the last of them ends.
  let held = false;
  try {
    if (holds === 0) {
      const v8 = process.getBuiltinModule('node:v8');
      process.getBuiltinModule('node:vm'); // for collectBetweenPages, loaded before the flag changes
      v8.setFlagsFromString('--semi-space-growth-factor=1');
    }
    holds++;
    held = true;
  } catch {
    // a runtime without V8's flags
  }
  return () => {
    if (!held) return;
    held = false;
    if (--holds === 0) process.getBuiltinModule('node:v8').setFlagsFromString('--semi-space-growth-factor=2'); // V8's default
  };
}
let holds = 0;
