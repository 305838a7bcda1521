// The one place `pr comment update`, `pr comment delete` and `pr task update` read the comment they change and build
// the request.
import { type RestComment, toComment } from '../../api/comments.ts';
import type { Id } from '../../api/ids.ts';
import { prPath } from '../../api/pull-requests.ts';
import type { CommandDeps } from '../../command.ts';
import type { Change } from '../../output/change.ts';
import { prContext } from './pr-context.ts';

/** The comment as it is now and a change built from it; `build` gets its path and current state. */
export async function commentChange(
  deps: CommandDeps,
  id: Id,
  comment: Id,
  intent: string,
  build: (
    path: string,
    current: RestComment,
  ) => Pick<Change, 'request' | 'description' | 'predicted' | 'reasons'>,
  /** Tasks (blocker comments) live under their own path. */
  collection: 'comments' | 'blocker-comments' = 'comments',
): Promise<{ change: Change; current: RestComment; repository: string }> {
  const { repo, client } = await prContext(deps);
  const path = prPath(repo, id, `/${collection}/${comment}`);
  const current = await client.get<RestComment>(path);
  const parts = build(path, current);
  const replies = current.comments?.length ?? 0;
  return {
    current,
    repository: `${repo.project}/${repo.slug}`,
    change: {
      client,
      intent,
      host: repo.host.url,
      target: {
        type: collection === 'comments' ? 'comment' : 'task',
        id: `${repo.project}/${repo.slug}#${id}/${comment}`,
      },
      ...parts,
      blocking:
        parts.request.method === 'DELETE' && replies
          ? [
              `comment ${comment} has ${replies} repl${replies === 1 ? 'y' : 'ies'}; Bitbucket keeps threads whole`,
            ]
          : [],
    },
  };
}

export { toComment };
