import type { PrCommentApplySuggestionOutput } from '../../../../generated/types/cli/output/pr-comment-apply-suggestion.ts';
import { UsageError } from '../../../core/errors.ts';
import type { Id } from '../../api/ids.ts';
import { fetchPullRequest, parsePrId } from '../../api/pull-requests.ts';
import { type CommandDeps, defineCommand } from '../../command.ts';
import { apply, planOf } from '../../output/change.ts';
import { parseCommentId } from './comment-body.ts';
import { commentChange } from './comment-change.ts';
import { prContext, prIdArg } from './pr-context.ts';

type Options = { id: Id; comment: Id; index: number; message?: string };

/** How many ```suggestion blocks a comment holds (Bitbucket numbers them from 0). */
export const suggestionCount = (text: string | undefined) => text?.match(/^```suggestion\s*$/gm)?.length ?? 0;

async function prepare(o: Options, deps: CommandDeps) {
  const { repo, client } = await prContext(deps);
  const pr = await fetchPullRequest(client, repo, o.id);
  const prepared = await commentChange(
    deps,
    o.id,
    o.comment,
    `bbdc pr comment apply-suggestion ${o.id} ${o.comment}`,
    (path, c) => ({
      // The versions just read: the server refuses (409) if the comment or the pull request changed since.
      request: {
        method: 'POST',
        path: `${path}/apply-suggestion`,
        body: {
          commentVersion: c.version,
          pullRequestVersion: pr.version,
          suggestionIndex: o.index,
          ...(o.message !== undefined && { commitMessage: o.message }),
        },
      },
      description: `commit suggestion ${o.index} of comment ${o.comment} to the source branch of pull request #${o.id}`,
      predicted: 'update',
      reasons: [`the comment is at version ${c.version}, the pull request at version ${pr.version}`],
    }),
  );
  const count = suggestionCount(prepared.current.text);
  if (o.index >= count)
    prepared.change.blocking = [
      count
        ? `comment ${o.comment} has ${count} suggestion${count === 1 ? '' : 's'} (--index 0 to ${count - 1})`
        : `comment ${o.comment} has no suggestion (a \`\`\`suggestion block)`,
    ];
  return prepared;
}

/** `bbdc pr comment apply-suggestion <id> <comment>`: commits a comment's suggested change, as the web UI does. */
export const command = defineCommand<Options, PrCommentApplySuggestionOutput>({
  name: 'pr comment apply-suggestion',
  summary: "Commit a comment's suggested change to the pull request's source branch",
  description:
    'Applies the suggestion as written against the comment and pull request versions read just before, so a change made since is refused instead of applied in the wrong place. Needs REPO_WRITE.',
  args: [prIdArg, { name: 'comment', required: true, description: 'Comment id (see bbdc pr comment list)' }],
  flags: {
    index: {
      type: 'string',
      value: 'N',
      description: 'Which suggestion of the comment (default 0, the first)',
    },
    message: {
      type: 'string',
      shortFlag: 'm',
      value: 'TEXT',
      description: 'Commit message (the server has a default)',
    },
  },
  outputSchema: 'pr-comment-apply-suggestion',
  effect: 'mutating',
  needs: { permission: 'REPO_WRITE', action: 'applying a suggestion' },
  examples: [
    'bbdc pr comment apply-suggestion 42 1234',
    'bbdc pr comment apply-suggestion 42 1234 --index 1 -m "Rename"',
  ],
  parse: ({ args, flags }) => {
    const index = flags.index === undefined ? 0 : String(flags.index);
    if (typeof index === 'string' && !/^\d{1,6}$/.test(index))
      throw new UsageError(`--index "${index}" must be a whole number (0 is the comment's first suggestion)`);
    return {
      id: parsePrId(args[0]),
      comment: parseCommentId(args[1], 'comment'),
      index: Number(index),
      message: flags.message as string | undefined,
    };
  },
  plan: async (o, deps) => planOf((await prepare(o, deps)).change),
  async run(o, deps) {
    const { change, repository } = await prepare(o, deps);
    await apply(change);
    return { pullRequest: o.id, repository, comment: o.comment, suggestion: o.index, applied: true as const };
  },
  human(d, ui) {
    ui.line(`Applied suggestion ${d.suggestion} of comment #${d.comment} to pull request #${d.pullRequest}`);
  },
});
