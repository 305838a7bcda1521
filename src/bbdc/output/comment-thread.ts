import type { PrComment } from '../../../generated/types/cli/output/pr-comment-list.ts';
import type { Ui } from './ui.ts';

const lineTypes = { ADDED: 'added line', REMOVED: 'removed line', CONTEXT: 'unchanged line' };

/** Where a thread sits: `path:line (added line)`, the file alone, or `general comment`. */
export function anchorLabel(c: PrComment): string {
  if (!c.anchor) return 'general comment';
  const line = c.anchor.line !== undefined ? `:${c.anchor.line}` : '';
  const kind = c.anchor.lineType
    ? ` (${lineTypes[c.anchor.lineType]})`
    : c.anchor.line === undefined
      ? ' (file)'
      : '';
  return `${c.anchor.path}${line}${kind}`;
}

/** `2023-11-14 22:13` in UTC: short, and the same on every machine. */
export function shortDate(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}

function marks(c: PrComment): string {
  const m = [
    ...(c.severity === 'BLOCKER' ? [`task, ${c.state === 'RESOLVED' ? 'resolved' : 'open'}`] : []),
    ...(c.resolved ? ['thread resolved'] : []),
  ];
  return m.length ? ` [${m.join('; ')}]` : '';
}

function printComment(c: PrComment, ui: Ui, indent: string, reply: boolean): void {
  const head = `${c.author?.name ?? 'unknown author'} · #${c.id} · ${shortDate(c.createdDate)}${marks(c)}`;
  ui.line(`${indent}${reply ? '└─ ' : '● '}${ui.bold(head)}`);
  const body = `${indent}${reply ? '   ' : '  '}`;
  for (const line of c.text.split('\n')) ui.line(`${body}${line}`);
  for (const r of c.replies) printComment(r, ui, body, true);
}

/** Prints one thread: its anchor, then each comment with its replies indented beneath it. */
export function printThread(c: PrComment, ui: Ui): void {
  ui.line(ui.dim(anchorLabel(c)));
  printComment(c, ui, '', false);
}
