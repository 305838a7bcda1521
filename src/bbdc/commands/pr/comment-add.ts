import type { PrCommentOutput } from '../../../../generated/types/cli/output/pr-comment.ts';
import { UsageError } from '../../../core/errors.ts';
import { type RestComment, toComment } from '../../api/comments.ts';
import { statusOf } from '../../api/errors.ts';
import type { Id } from '../../api/ids.ts';
import { readChanges } from '../../api/pr-changes.ts';
import { fetchPullRequest, parsePrId, prPath } from '../../api/pull-requests.ts';
import { type CommandDeps, defineCommand } from '../../command.ts';
import { anchorLabel } from '../../output/comment-thread.ts';
import { makePlan } from '../../output/plan.ts';
import { positiveInt } from '../repo/list.ts';
import { bodyFlags, bodySource, parseCommentId, readBody } from './comment-body.ts';
import type { DescriptionSource } from './description-input.ts';
import { prContext, prIdArg } from './pr-context.ts';

type LineType = 'ADDED' | 'REMOVED' | 'CONTEXT';
type Options = {
  id: Id;
  body: DescriptionSource;
  replyTo?: Id;
  path?: string;
  line?: Id;
  lineType: LineType;
  pending: boolean;
};

function request(o: Options, text: string) {
  return {
    text,
    ...(o.pending && { state: 'PENDING' }),
    ...(o.replyTo && { parent: { id: o.replyTo } }),
    ...(o.path && {
      anchor: {
        path: o.path,
        diffType: 'EFFECTIVE',
        fileType: o.lineType === 'REMOVED' ? 'FROM' : 'TO',
        ...(o.line !== undefined && { line: o.line, lineType: o.lineType }),
      },
    }),
  };
}

async function problems(o: Options, deps: CommandDeps): Promise<string[]> {
  const { repo, client } = await prContext(deps);
  await fetchPullRequest(client, repo, o.id);
  const found: string[] = [];
  if (o.replyTo) {
    await client.get(prPath(repo, o.id, `/comments/${o.replyTo}`)).catch((e) => {
      if (statusOf(e) !== 404) throw e;
      found.push(`comment ${o.replyTo} does not exist on pull request #${o.id}`);
    });
  }
  if (o.path) {
    const { changes } = await readChanges(client, prPath(repo, o.id, '/changes'), 1000);
    if (!changes.some((c) => c.path === o.path))
      found.push(`${o.path} is not changed by pull request #${o.id}`);
  }
  return found;
}

/** `bbdc pr comment add <id>`: a general comment, a reply (--reply-to) or an inline one (--path, --line). */
export const command = defineCommand<Options, PrCommentOutput>({
  name: 'pr comment add',
  summary: 'Comment on a pull request, reply to a comment, or comment on a file line',
  args: [prIdArg],
  flags: {
    ...bodyFlags,
    replyTo: { type: 'string', value: 'COMMENT', description: 'Reply to this comment id' },
    path: { type: 'string', value: 'PATH', description: 'Comment on this file of the diff' },
    line: { type: 'string', value: 'N', description: 'The line in the file (with --path)' },
    lineType: {
      type: 'string',
      value: 'TYPE',
      choices: ['added', 'removed', 'context'],
      description: 'Which side the line is on: added (default, new file), removed (old file) or context',
    },
    pending: {
      type: 'boolean',
      description: 'Add it to your review batch, unpublished (see bbdc pr review complete)',
    },
  },
  outputSchema: 'pr-comment',
  effect: 'mutating',
  examples: [
    'bbdc pr comment add 42 --body "Looks good"',
    'bbdc pr comment add 42 --reply-to 1234 --body "Done"',
    'bbdc pr comment add 42 --path src/app.ts --line 17 --body "Off by one?"',
  ],
  parse: ({ args, flags }) => {
    const o: Options = {
      id: parsePrId(args[0]),
      body: bodySource(flags),
      replyTo:
        flags.replyTo === undefined ? undefined : parseCommentId(String(flags.replyTo), '--reply-to comment'),
      path: (flags.path as string | undefined)?.replace(/^\/+/, ''),
      line: flags.line === undefined ? undefined : positiveInt(flags.line, '--line', 1),
      lineType: String(flags.lineType ?? 'added').toUpperCase() as LineType,
      pending: flags.pending === true,
    };
    if (o.line !== undefined && !o.path)
      throw new UsageError('--line needs --path: say which file the line is in');
    if (flags.lineType !== undefined && o.line === undefined)
      throw new UsageError('--line-type needs --line');
    if (o.replyTo && o.path)
      throw new UsageError('--reply-to and --path cannot be combined: a reply sits where its thread is');
    return o;
  },
  async plan(o, deps) {
    const { repo } = await prContext(deps);
    const text = await readBody(o.body, deps);
    const blocking = await problems(o, deps);
    const where = o.replyTo
      ? `reply to comment ${o.replyTo}`
      : o.path
        ? `comment on ${o.path}${o.line ? `:${o.line}` : ''}`
        : 'comment';
    return makePlan({
      intent: `bbdc pr comment add ${o.id}`,
      target: { type: 'pull-request', id: `${repo.project}/${repo.slug}#${o.id}`, host: repo.host.url },
      action: {
        type: 'http',
        description: `add a ${where} on pull request #${o.id}`,
        method: 'POST',
        path: prPath(repo, o.id, '/comments'),
        body: request(o, text),
      },
      predictedAction: blocking.length ? 'conflict' : 'create',
      reasons: [],
      blockingReasons: blocking,
    });
  },
  async run(o, deps) {
    const text = await readBody(o.body, deps);
    const { repo, client } = await prContext(deps);
    const res = await client.request<RestComment>('POST', prPath(repo, o.id, '/comments'), {
      body: request(o, text),
    });
    return toComment(res.data);
  },
  human(d, ui) {
    ui.line(`Added comment #${d.id}${d.anchor ? ` on ${anchorLabel(d)}` : ''}`);
  },
});
