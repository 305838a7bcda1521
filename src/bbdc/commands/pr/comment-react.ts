import type { PrCommentReactOutput } from '../../../../generated/types/cli/output/pr-comment-react.ts';
import { UsageError } from '../../../core/errors.ts';
import type { Id } from '../../api/ids.ts';
import { segment } from '../../api/path.ts';
import { parsePrId, prPath } from '../../api/pull-requests.ts';
import { type CommandDeps, defineCommand } from '../../command.ts';
import { apply, type Change, planOf } from '../../output/change.ts';
import { parseCommentId } from './comment-body.ts';
import { prContext, prIdArg } from './pr-context.ts';

type Options = { id: Id; comment: Id; emoji: string; remove: boolean };

async function prepare(o: Options, deps: CommandDeps): Promise<Change & { repository: string }> {
  const { repo, client } = await prContext(deps);
  // The comment must exist (a 404 names it) before a reaction is planned on it.
  await client.get(prPath(repo, o.id, `/comments/${o.comment}`));
  const path = `/rest/comment-likes/latest/projects/${segment('project', repo.project)}/repos/${segment('repository', repo.slug)}/pull-requests/${o.id}/comments/${o.comment}/reactions/${segment('emoji', o.emoji)}`;
  return {
    client,
    repository: `${repo.project}/${repo.slug}`,
    intent: `bbdc pr comment react ${o.id} ${o.comment} ${o.emoji}${o.remove ? ' --remove' : ''}`,
    host: repo.host.url,
    target: { type: 'comment', id: `${repo.project}/${repo.slug}#${o.id}/${o.comment}` },
    request: { method: o.remove ? 'DELETE' : 'PUT', path },
    description: `${o.remove ? 'remove your' : 'add a'} :${o.emoji}: reaction ${o.remove ? 'from' : 'to'} comment ${o.comment}`,
    predicted: o.remove ? 'delete' : 'create',
    reasons: [],
  };
}

/** `bbdc pr comment react <id> <comment> <emoji>`: reacts to a comment (or takes the reaction back). */
export const command = defineCommand<Options, PrCommentReactOutput>({
  name: 'pr comment react',
  summary: 'React to a pull request comment with an emoji (or take it back with --remove)',
  args: [
    prIdArg,
    { name: 'comment', required: true, description: 'Comment id' },
    { name: 'emoji', required: true, description: 'Emoticon name, e.g. thumbsup, heart, tada' },
  ],
  flags: { remove: { type: 'boolean', description: 'Remove your reaction instead' } },
  outputSchema: 'pr-comment-react',
  effect: 'mutating',
  examples: ['bbdc pr comment react 42 1234 thumbsup'],
  parse: ({ args, flags }) => {
    const emoji = String(args[2] ?? '').replace(/^:|:$/g, '');
    if (!/^[a-z0-9_+-]{1,50}$/.test(emoji))
      throw new UsageError(`emoji "${args[2]}" must be an emoticon name such as thumbsup or heart`);
    return {
      id: parsePrId(args[0]),
      comment: parseCommentId(args[1], 'comment'),
      emoji,
      remove: flags.remove === true,
    };
  },
  plan: async (o, deps) => planOf(await prepare(o, deps)),
  async run(o, deps) {
    const change = await prepare(o, deps);
    await apply(change);
    return {
      pullRequest: o.id,
      repository: change.repository,
      comment: o.comment,
      emoji: o.emoji,
      reacted: !o.remove,
    };
  },
  human(d, ui) {
    ui.line(
      `${d.reacted ? 'Reacted' : 'Removed your reaction'} :${d.emoji}: ${d.reacted ? 'to' : 'from'} comment #${d.comment}`,
    );
  },
});
