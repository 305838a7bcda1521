// Terminal display width: a CJK character or an emoji takes two columns, a combining mark or an ANSI escape none,
// so that table columns line up and truncation never splits a character, a grapheme or an escape sequence.

// ANSI CSI sequences (colours) and OSC sequences (hyperlinks), which take no column.
const ansi = new RegExp(
  `${String.fromCharCode(27)}(?:\\[[0-?]*[ -/]*[@-~]|\\][^${String.fromCharCode(7)}]*(?:${String.fromCharCode(7)}|${String.fromCharCode(27)}\\\\))`,
  'g',
);

// East Asian Wide and Fullwidth ranges (Unicode UAX #11), the ones terminals draw two columns wide.
const wideRanges: [number, number][] = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x16fe0, 0x16fe4],
  [0x17000, 0x18cff],
  [0x1b000, 0x1b2ff],
  [0x1f200, 0x1f2ff],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];
// Made on first use: a \p{...} class makes V8 build its set from ICU's tables at start-up, and --json
// output or ASCII text never needs them.
let emoji: RegExp | undefined;
let zeroWidth: RegExp | undefined;
let segmenter: Intl.Segmenter | undefined;

/** The user-perceived characters (grapheme clusters) of a text without escape sequences. */
function graphemes(text: string): string[] {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

/** Columns one grapheme takes: 0, 1 or 2. */
export function graphemeWidth(g: string): number {
  zeroWidth ??= /^[\p{Mn}\p{Me}\p{Cf}\p{Cc}]+$/u;
  emoji ??= /\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F/u;
  if (zeroWidth.test(g)) return 0;
  if (emoji.test(g)) return 2;
  const cp = g.codePointAt(0) ?? 0;
  return wideRanges.some(([lo, hi]) => cp >= lo && cp <= hi) ? 2 : 1;
}

/** Removes ANSI escape sequences. */
export function stripAnsi(text: string): string {
  return text.replace(ansi, '');
}

/** Columns the text takes on a terminal. */
export function displayWidth(text: string): number {
  const plain = stripAnsi(text);
  // ASCII is one column per character: the common case, without segmenting.
  if (/^[\x20-\x7e]*$/.test(plain)) return plain.length;
  return graphemes(plain).reduce((sum, g) => sum + graphemeWidth(g), 0);
}

/**
 * Cuts text to at most `width` columns, ending in `…` when cut; escape sequences are kept whole (and closed with a
 * reset), graphemes are never split.
 */
export function truncateToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  let styled = false;
  for (const part of text.split(new RegExp(`(${ansi.source})`, 'g'))) {
    if (!part) continue;
    if (new RegExp(`^${ansi.source}$`).test(part)) {
      out += part;
      styled = true;
      continue;
    }
    for (const g of graphemes(part)) {
      const w = graphemeWidth(g);
      if (used + w > width - 1) return `${out}…${styled ? `${String.fromCharCode(27)}[0m` : ''}`;
      out += g;
      used += w;
    }
  }
  return out;
}

/** Pads text with spaces to `width` columns. */
export function padToWidth(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}
