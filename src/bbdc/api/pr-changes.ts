import type { DiffFile } from '../../../generated/types/cli/output/pr-diff.ts';
import type { BitbucketClient } from './client.ts';
import { collectPages, type Page } from './paging.ts';

type ChangeType = DiffFile['type'];
const changeTypes: ChangeType[] = ['ADD', 'COPY', 'DELETE', 'MODIFY', 'MOVE', 'UNKNOWN'];

/** A path as the 9.4 document describes it (RestPath: components, name, parent); servers also send `toString`. */
export type RestPath = { toString?: unknown; components?: unknown; name?: unknown; parent?: unknown };

/** One changed file as GET .../changes returns it; every field is optional in the document. */
export type RestChange = {
  path?: RestPath | string;
  srcPath?: RestPath | string;
  type?: string;
  nodeType?: string;
};

/** A changed file as bbdc reads it: paths as text. */
export type Change = { path: string; srcPath?: string; type: ChangeType };

/**
 * The text of a path: a string as is, else its own `toString` field, else `components` joined by `/`, else
 * `parent/name`. Never the inherited Object.prototype.toString (printed as `function toString() ...`).
 */
export function pathText(p: RestPath | string | undefined): string | undefined {
  if (typeof p === 'string') return p;
  if (!p || typeof p !== 'object') return undefined;
  if (Object.hasOwn(p, 'toString') && typeof p.toString === 'string') return p.toString;
  if (Array.isArray(p.components) && p.components.every((c) => typeof c === 'string') && p.components.length)
    return p.components.join('/');
  if (typeof p.name === 'string')
    return typeof p.parent === 'string' && p.parent ? `${p.parent}/${p.name}` : p.name;
  return undefined;
}

/** A change bbdc can show, or undefined when the server named no path. */
export function toChange(c: RestChange): Change | undefined {
  const path = pathText(c.path);
  if (path === undefined) return undefined;
  const srcPath = pathText(c.srcPath);
  const type = changeTypes.includes(c.type as ChangeType) ? (c.type as ChangeType) : 'UNKNOWN';
  return { path, ...(srcPath !== undefined && { srcPath }), type };
}

/**
 * The changes of a pull request, one request per page. Live servers answer a page; the 9.4 document declares a
 * single RestChange, so an answer that is not a page is read as that one change.
 */
export async function readChanges(
  client: BitbucketClient,
  path: string,
  limit: number | undefined,
): Promise<{ changes: Change[]; truncated: boolean }> {
  const pageOrOne = (answer: unknown): Page<RestChange> | RestChange[] | undefined => {
    if (!answer || typeof answer !== 'object') return undefined;
    return Array.isArray((answer as Page<RestChange>).values) ? (answer as Page<RestChange>) : [answer];
  };
  const { values, truncated } = await collectPages<RestChange>(client, path, {}, limit, 0, pageOrOne);
  return { changes: values.flatMap((c) => toChange(c) ?? []), truncated };
}

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
    segments?: { type: 'ADDED' | 'REMOVED' | 'CONTEXT'; lines?: { line?: string }[] }[];
  }[];
};

const marks = { ADDED: '+', REMOVED: '-', CONTEXT: ' ' };

/** The first diff of an answer, whether the server sent RestDiff itself or `{diffs: [RestDiff]}`. */
export function firstDiff(answer: RestDiff | { diffs?: RestDiff[] }): RestDiff {
  if (!answer || typeof answer !== 'object') return {};
  if ('diffs' in answer) return answer.diffs?.[0] ?? {};
  return answer as RestDiff;
}

/** A unified diff of one file (git's format), with its added and removed line counts. */
export function unifiedDiff(change: Change, diff: RestDiff) {
  const path = change.path;
  const src = change.srcPath ?? path;
  const head = [
    `diff --git a/${src} b/${path}`,
    change.type === 'ADD' ? '--- /dev/null' : `--- a/${src}`,
    change.type === 'DELETE' ? '+++ /dev/null' : `+++ b/${path}`,
  ];
  let additions = 0;
  let deletions = 0;
  const body: string[] = [];
  if (diff.binary) body.push(`Binary files a/${src} and b/${path} differ`);
  for (const h of Array.isArray(diff.hunks) ? diff.hunks : []) {
    body.push(
      `@@ -${h.sourceLine},${h.sourceSpan} +${h.destinationLine},${h.destinationSpan} @@${h.context ? ` ${h.context}` : ''}`,
    );
    for (const s of h.segments ?? []) {
      const lines = s.lines ?? [];
      if (s.type === 'ADDED') additions += lines.length;
      if (s.type === 'REMOVED') deletions += lines.length;
      for (const l of lines) body.push(`${marks[s.type] ?? ' '}${l.line ?? ''}`);
    }
  }
  return { patch: [...head, ...body].join('\n'), additions, deletions, lines: body.length };
}
