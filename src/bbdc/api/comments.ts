import type { PrComment } from '../../../generated/types/cli/output/pr-comment-list.ts';
import { pathText, type RestPath } from './pr-changes.ts';
import { type RestUser, userOf } from './pull-requests.ts';
import { isoTime } from './timestamps.ts';

/** A comment as Bitbucket returns it, replies nested in `comments`; a BLOCKER comment is a task. */
export type RestComment = {
  id: number;
  version: number;
  text: string;
  author?: RestUser;
  createdDate: number;
  severity?: 'NORMAL' | 'BLOCKER';
  state?: 'OPEN' | 'RESOLVED' | 'PENDING';
  threadResolved?: boolean;
  parent?: { id: number };
  anchor?: {
    path?: RestPath | string;
    line?: number;
    lineType?: 'ADDED' | 'REMOVED' | 'CONTEXT';
    fileType?: 'FROM' | 'TO';
  };
  comments?: RestComment[];
};

/** One entry of GET .../activities; COMMENTED ones carry the comment with its replies. */
export type RestActivity = {
  id: number;
  action: string;
  commentAction?: string;
  comment?: RestComment;
  commentAnchor?: RestComment['anchor'];
};

/** The comment shape bbdc prints, replies included; `anchor` is taken from the activity when the comment lacks it. */
export function toComment(c: RestComment, anchor = c.anchor): PrComment {
  return {
    id: c.id,
    version: c.version,
    ...(userOf(c.author) && { author: userOf(c.author) }),
    text: c.text,
    createdDate: isoTime(c.createdDate, `comment ${c.id} createdDate`)!,
    severity: c.severity ?? 'NORMAL',
    state: c.state ?? 'OPEN',
    resolved: c.threadResolved === true,
    ...(anchor &&
      pathText(anchor.path) !== undefined && {
        anchor: {
          path: pathText(anchor.path)!,
          ...(anchor.line !== undefined && { line: anchor.line }),
          ...(anchor.lineType && { lineType: anchor.lineType }),
          ...(anchor.fileType && { fileType: anchor.fileType }),
        },
      }),
    replies: (c.comments ?? []).map((r) => toComment(r, undefined)),
  };
}

/** Every comment in a thread, the root first. */
export function flatten(c: PrComment): PrComment[] {
  return [c, ...c.replies.flatMap(flatten)];
}

/** The comment threads of a pull request from its activities: roots oldest first, each reply once, in its thread. */
export function threadsFromActivities(activities: RestActivity[]): PrComment[] {
  const commented = activities.filter((a) => a.action === 'COMMENTED' && a.comment);
  const nested = new Set<number>();
  const visit = (c: RestComment) => {
    for (const r of c.comments ?? []) {
      nested.add(r.id);
      visit(r);
    }
  };
  for (const a of commented) visit(a.comment!);
  const roots = new Map<number, PrComment>();
  for (const a of commented) {
    const c = a.comment!;
    if (nested.has(c.id) || c.parent || roots.has(c.id)) continue;
    roots.set(c.id, toComment(c, c.anchor ?? a.commentAnchor));
  }
  return [...roots.values()].sort((x, y) => x.createdDate.localeCompare(y.createdDate) || x.id - y.id);
}
