// A Bitbucket page read as its bytes arrive: each item of the top-level `values` array is handed over as soon as its
// last byte is in, and the page's other fields (isLastPage, nextPageStart...) are read on the way. So a list holds
// one item at a time, not a page of 1,000 as bytes, text and objects at once. Only the structure is tracked
// (depth, strings, escapes); each item's text is then parsed by parseJson, which keeps integers beyond 2^53 exact.
// The byte loop is one small function with its state in locals (skip): V8 optimises it once and cheaply, where a
// loop that also handles every event is compiled again and again.
import { parseJson } from '../../core/exact-json.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;
const COLON = 0x3a;

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** Where a scan is: nesting depth (1 inside the page's object), and inside a string, after a backslash. */
type State = { depth: number; inString: boolean; escaped: boolean };

/**
 * The index of the next byte from `i` that ends something at depth 1 or 2 (`,` `:` or a closing bracket there),
 * or `chunk.length`; everything deeper and every string is skipped. `s` is updated to the returned index.
 */
function skip(chunk: Buffer, i: number, s: State): number {
  let depth = s.depth;
  let inString = s.inString;
  let escaped = s.escaped;
  const n = chunk.length;
  for (; i < n; i++) {
    const b = chunk[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (b === BACKSLASH) escaped = true;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (b === OPEN_OBJECT || b === OPEN_ARRAY) depth++;
    else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
      if (depth <= 2) break;
      depth--;
    } else if ((b === COMMA || b === COLON) && depth <= 2) break;
  }
  s.depth = depth;
  s.inString = inString;
  s.escaped = escaped;
  return i;
}

/**
 * Feeds a page's body chunk by chunk (`push`), returning the items completed by each chunk as JSON text. `fields`
 * holds the page's other top-level fields, parsed; `items` counts the items seen. A body that is not a JSON object
 * (a bare array, text, nothing) is kept whole instead, and `end` returns its text, to be read as before.
 */
export class PageScanner {
  /** The page's top-level fields other than `values`, parsed, as far as they have arrived. */
  readonly fields: Record<string, unknown> = {};
  /** Items of `values` seen so far. */
  items = 0;
  private mode: 'start' | 'page' | 'raw' | 'done' = 'start';
  private readonly state: State = { depth: 0, inString: false, escaped: false };
  // At depth 1: reading a key (up to ':'), a field's value (up to ',' or '}'), the start of `values` (is it an
  // array?), its items, or what follows them.
  private reading: 'key' | 'value' | 'values?' | 'items' | 'after' = 'key';
  private key = '';
  // The text being read: pieces of earlier chunks, and where it starts in this one.
  private pieces: Buffer[] = [];
  private from = 0;
  private rawChunks: Buffer[] = [];

  /** Scans one chunk; returns the text of each item it completed. */
  push(chunk: Buffer): string[] {
    const out: string[] = [];
    const s = this.state;
    const n = chunk.length;
    let i = 0;
    if (this.mode === 'start') {
      while (i < n && isSpace(chunk[i])) i++;
      if (i === n) return out;
      this.mode = chunk[i] === OPEN_OBJECT ? 'page' : 'raw';
      s.depth = 1;
      this.from = ++i;
    } else this.from = 0;
    if (this.mode === 'raw') {
      this.rawChunks.push(chunk);
      return out;
    }
    while (this.mode === 'page' && i < n) {
      if (this.reading === 'values?') {
        while (i < n && isSpace(chunk[i])) i++;
        if (i === n) break;
        if (chunk[i] === OPEN_ARRAY) {
          this.reading = 'items';
          s.depth = 2;
          this.from = ++i;
        } else this.reading = 'value';
        continue;
      }
      i = skip(chunk, i, s);
      if (i === n) break;
      const b = chunk[i];
      if (s.depth === 2) {
        // Inside a field's value only the items of `values` are of interest: another value goes on to its end.
        if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) s.depth = 1;
        if (this.reading === 'items') {
          this.item(chunk, i, out);
          this.from = i + 1;
          if (s.depth === 1) this.reading = 'after';
        }
      } else if (b === COLON) {
        if (this.reading === 'key') {
          this.key = String(JSON.parse(this.take(chunk, i)));
          this.reading = this.key === 'values' ? 'values?' : 'value';
          this.from = i + 1;
        }
      } else if (b === COMMA || b === CLOSE_OBJECT) {
        const text = this.take(chunk, i);
        if (this.reading === 'value') this.fields[this.key] = parseJson(text);
        this.reading = 'key';
        this.from = i + 1;
        if (b === CLOSE_OBJECT) this.mode = 'done';
      }
      i++;
    }
    if (this.mode === 'page' && this.from < n) this.pieces.push(chunk.subarray(this.from));
    return out;
  }

  /** Ends the body: the whole text of a body that was not an object, else undefined. */
  end(): string | undefined {
    if (this.mode === 'raw') return Buffer.concat(this.rawChunks).toString('utf8');
    if (this.mode === 'start') return '';
    if (this.mode !== 'done') throw new Error('the page ended before its closing brace');
    return undefined;
  }

  /** The text read up to `to` in `chunk`. */
  private take(chunk: Buffer, to: number): string {
    if (!this.pieces.length) return chunk.toString('utf8', this.from, to);
    const text = Buffer.concat([...this.pieces, chunk.subarray(this.from, to)]).toString('utf8');
    this.pieces = [];
    return text;
  }

  private item(chunk: Buffer, to: number, out: string[]): void {
    const text = this.take(chunk, to);
    // `[]`, and the space before `]`, are no item.
    if (text.trim() === '') return;
    this.items++;
    out.push(text);
  }
}
