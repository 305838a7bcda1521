import type { DiffFile } from '../../../generated/types/cli/output/pr-diff.ts';

type ChangeType = DiffFile['type'];

/** One changed file as GET .../changes returns it. */
export type RestChange = {
  path: { toString: string };
  srcPath?: { toString: string };
  type: ChangeType;
  nodeType?: string;
};

/** A file's diff as GET .../diff/{path} returns it (some servers wrap it in `diffs`). */
export type RestDiff = {
  binary?: boolean;
  truncated?: boolean;
  hunks?: {
    sourceLine: number;
    sourceSpan: number;
    destinationLine: number;
    destinationSpan: number;
    context?: string;
    segments: { type: 'ADDED' | 'REMOVED' | 'CONTEXT'; lines: { line: string }[] }[];
  }[];
};

const marks = { ADDED: '+', REMOVED: '-', CONTEXT: ' ' };

/** The first diff of an answer, whether the server sent RestDiff itself or `{diffs: [RestDiff]}`. */
export function firstDiff(answer: RestDiff | { diffs?: RestDiff[] }): RestDiff {
  if ('diffs' in answer) return answer.diffs?.[0] ?? {};
  return answer as RestDiff;
}

/** A unified diff of one file (git's format), with its added and removed line counts. */
export function unifiedDiff(change: RestChange, diff: RestDiff) {
  const path = change.path.toString;
  const src = change.srcPath?.toString ?? path;
  const head = [
    `diff --git a/${src} b/${path}`,
    change.type === 'ADD' ? '--- /dev/null' : `--- a/${src}`,
    change.type === 'DELETE' ? '+++ /dev/null' : `+++ b/${path}`,
  ];
  let additions = 0;
  let deletions = 0;
  const body: string[] = [];
  if (diff.binary) body.push(`Binary files a/${src} and b/${path} differ`);
  for (const h of diff.hunks ?? []) {
    body.push(
      `@@ -${h.sourceLine},${h.sourceSpan} +${h.destinationLine},${h.destinationSpan} @@${h.context ? ` ${h.context}` : ''}`,
    );
    for (const s of h.segments) {
      if (s.type === 'ADDED') additions += s.lines.length;
      if (s.type === 'REMOVED') deletions += s.lines.length;
      for (const l of s.lines) body.push(`${marks[s.type]}${l.line}`);
    }
  }
  return { patch: [...head, ...body].join('\n'), additions, deletions, lines: body.length };
}
