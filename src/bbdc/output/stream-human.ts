// Human output of a list printed while its pages arrive: the command's human function runs once per window of
// items, and its table continues across windows with the column widths measured on the first window (a later,
// wider cell is truncated with `…`). Memory holds one window, not the whole list.
import { LazyList, materialize } from './stream-json.ts';
import type { Ui } from './ui.ts';

/** Items in the first window, which decides the column widths at a terminal. */
export const humanWindow = 1000;
/**
 * Items in every other window: the first one when output is piped (tab-separated, no widths to measure) and each
 * after the first. Only the first window at a terminal needs many rows; a window of 1,000 outlives many young-
 * generation collections and ends in V8's old generation, where it stays until V8 collects that (figures:
 * docs/benchmarks.md, "Costs behind choices in the code").
 */
export const smallWindow = 100;

/**
 * A Ui whose tables with the same headers continue the first one: no second header, the first window's widths.
 */
export function continuingTables(ui: Ui): Ui {
  let first: { headers: string; widths: number[] } | undefined;
  return Object.assign(Object.create(ui) as Ui, {
    table(headers: string[], rows: string[][]) {
      if (!ui.tableWindow) return ui.table(headers, rows);
      const key = headers.join('\t');
      if (first?.headers === key) {
        ui.tableWindow(headers, rows, first.widths, false);
        return;
      }
      const widths = ui.tableWindow(headers, rows, undefined, true);
      first ??= { headers: key, widths };
    },
  });
}

/**
 * Prints `data` with `human`. When its one list field is still arriving (a LazyList), `human` gets the data with a
 * window of at most `window` items in that field, then windows of at most `later`; the other fields are read anew each time,
 * so a count or truncated flag read after the list (getters) is final in the last window, and an empty list is
 * one empty window. Data without such a list is collected and printed once.
 */
export async function printHuman<D>(
  data: D,
  human: (data: D, ui: Ui) => void,
  ui: Ui,
  window = ui.tty ? humanWindow : smallWindow,
  later = Math.min(window, smallWindow),
): Promise<void> {
  const fields = data && typeof data === 'object' ? Object.keys(data) : [];
  const lists = fields.filter((k) => (data as Record<string, unknown>)[k] instanceof LazyList);
  if (lists.length !== 1) return human(await materialize(data), ui);
  const [key] = lists;
  const source = ((data as Record<string, unknown>)[key] as LazyList<unknown>).source;
  const items = source[Symbol.asyncIterator]();
  const tables = continuingTables(ui);
  let next = await items.next();
  for (let first = true; first || !next.done; first = false) {
    const chunk: unknown[] = [];
    while (!next.done && chunk.length < (first ? window : later)) {
      chunk.push(next.value);
      next = await items.next();
    }
    const view: Record<string, unknown> = {};
    for (const k of fields) view[k] = k === key ? chunk : (data as Record<string, unknown>)[k];
    human(view as D, tables);
  }
}
