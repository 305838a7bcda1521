import type { Writer } from '../deps.ts';
import { displayWidth, padToWidth, truncateToWidth } from './display-width.ts';

/** How human output is shaped: colour, headers and truncation only on a terminal; tab-separated when piped. */
export interface Ui {
  readonly tty: boolean;
  readonly color: boolean;
  readonly columns: number;
  /** Writes a line to stdout. */
  line(text?: string): void;
  /** Writes bytes to stdout exactly as given (a file's content), with nothing added. */
  bytes(data: Uint8Array): void;
  /** Writes an informational line to stderr, in human mode only. */
  notice(text: string): void;
  bold(text: string): string;
  dim(text: string): string;
  /** Prints rows as an aligned table with a header on a TTY, or as tab-separated lines without one. */
  table(headers: string[], rows: string[][]): void;
  /**
   * The same table continued: rows printed with the widths `widths` (measured on an earlier window of rows), with
   * the header only when `header`; returns the widths used. For lists printed while their pages arrive.
   */
  tableWindow?(headers: string[], rows: string[][], widths: number[] | undefined, header: boolean): number[];
}

const esc = String.fromCharCode(27);

function fitWidths(headers: string[], rows: string[][], columns: number): number[] {
  const widths = headers.map((h, i) =>
    Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i] ?? ''))),
  );
  const gap = 2 * (widths.length - 1);
  // Shrink the widest column until the table fits the terminal, but never below 8 characters.
  while (widths.reduce((a, b) => a + b, 0) + gap > columns) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest] <= 8) break;
    widths[widest]--;
  }
  return widths;
}

/**
 * The terminal's size: what it reports, else `$COLUMNS` and `$LINES` (as less and ncurses read them), else 100 x 24.
 * A terminal that reports 0 has no size of its own (a pseudo-terminal nobody sized, as `script` or a CI runner makes
 * one): a table fitted to 0 columns would cut every cell to 8 characters.
 */
export function terminalSize(
  reported: { columns?: number; rows?: number },
  env: Readonly<Record<string, string | undefined>>,
): { columns: number; rows: number } {
  const size = (n: number | undefined, variable: string | undefined, fallback: number) => {
    const fromEnv = Number(variable);
    if ((n ?? 0) > 0) return n as number;
    return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : fallback;
  };
  return { columns: size(reported.columns, env.COLUMNS, 100), rows: size(reported.rows, env.LINES, 24) };
}

/** Builds the Ui for one run. */
export function createUi(options: {
  stdout: Writer;
  stderr: Writer;
  tty: boolean;
  color: boolean;
  /** FORCE_COLOR: colour even when stdout is not a terminal. */
  forceColor?: boolean;
  columns: number;
  quiet: boolean;
  scrub: (text: string) => string;
}): Ui {
  const { stdout, stderr, tty, columns } = options;
  const color = options.color && (tty || options.forceColor === true);
  const ui: Ui = {
    tty,
    color,
    columns,
    line(text = '') {
      stdout.write(`${options.scrub(text)}\n`);
    },
    bytes(data) {
      stdout.write(data);
    },
    notice(text) {
      if (!options.quiet) stderr.write(`${options.scrub(text)}\n`);
    },
    bold: (text) => (color ? `${esc}[1m${text}${esc}[22m` : text),
    dim: (text) => (color ? `${esc}[2m${text}${esc}[22m` : text),
    table(headers, rows) {
      ui.tableWindow?.(headers, rows, undefined, true);
    },
    tableWindow(headers, rows, measured, header) {
      if (!tty) {
        for (const row of rows) ui.line(row.map((c) => c.replace(/[\t\n]/g, ' ')).join('\t'));
        return [];
      }
      const widths = measured ?? fitWidths(headers, rows, columns);
      const format = (cells: string[]) =>
        cells
          .map((c, i) =>
            padToWidth(truncateToWidth(c ?? '', widths[i]), i === cells.length - 1 ? 0 : widths[i]),
          )
          .join('  ')
          .trimEnd();
      if (header) ui.line(ui.bold(format(headers.map((h) => h.toUpperCase()))));
      for (const row of rows) ui.line(format(row));
      return widths;
    },
  };
  return ui;
}
