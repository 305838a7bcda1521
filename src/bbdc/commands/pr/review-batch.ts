// `pr review get|complete|discard`: your pending review batch (comments added with `pr comment add --pending`).
import type { PrReviewBatchOutput } from '../../../../generated/types/cli/output/pr-review-batch.ts';
import { UsageError } from '../../../core/errors.ts';
import { type RestComment, toComment } from '../../api/comments.ts';
import type { Id } from '../../api/ids.ts';
import { collectPages } from '../../api/paging.ts';
import { parsePrId, prPath } from '../../api/pull-requests.ts';
import { type CommandDeps, defineCommand } from '../../command.ts';
import { apply, type Change, planOf } from '../../output/change.ts';
import { printThread } from '../../output/comment-thread.ts';
import type { Ui } from '../../output/ui.ts';
import { prContext, prIdArg } from './pr-context.ts';

async function pending(deps: CommandDeps, id: Id) {
  const { repo, client } = await prContext(deps);
  const path = prPath(repo, id, '/review');
  const { values } = await collectPages<RestComment>(client, path, {}, undefined);
  return {
    repo,
    client,
    path,
    comments: values.map((c) => toComment(c)),
    repository: `${repo.project}/${repo.slug}`,
  };
}

function print(d: PrReviewBatchOutput, ui: Ui) {
  if (d.action === 'pending') {
    if (!d.count) ui.notice(`No pending review comments on #${d.pullRequest}.`);
    for (const c of d.comments) printThread(c, ui);
    return;
  }
  ui.line(
    d.action === 'published'
      ? `Published ${d.count} review comment${d.count === 1 ? '' : 's'} on #${d.pullRequest}${d.status ? ` (${d.status.toLowerCase().replace('_', ' ')})` : ''}`
      : `Discarded ${d.count} pending comment${d.count === 1 ? '' : 's'} on #${d.pullRequest}`,
  );
}

export const get = defineCommand<{ id: Id }, PrReviewBatchOutput>({
  name: 'pr review get',
  summary: 'Show your pending review comments of a pull request (not yet published)',
  args: [prIdArg],
  flags: {},
  outputSchema: 'pr-review-batch',
  effect: 'safe',
  examples: ['bbdc pr review get 42'],
  parse: ({ args }) => ({ id: parsePrId(args[0]) }),
  async run(o, deps) {
    const p = await pending(deps, o.id);
    return {
      pullRequest: o.id,
      repository: p.repository,
      comments: p.comments,
      count: p.comments.length,
      action: 'pending',
    };
  },
  human: print,
});

type CompleteOptions = { id: Id; status?: 'APPROVED' | 'NEEDS_WORK'; text?: string };

async function prepareComplete(o: CompleteOptions, deps: CommandDeps) {
  const p = await pending(deps, o.id);
  const body = {
    ...(o.text && { commentText: o.text }),
    ...(o.status && { participantStatus: o.status.toLowerCase() }),
  };
  const change: Change = {
    client: p.client,
    intent: `bbdc pr review complete ${o.id}`,
    host: p.repo.host.url,
    target: { type: 'pull-request', id: `${p.repository}#${o.id}` },
    request: { method: 'PUT', path: p.path, body },
    description: `publish ${p.comments.length} pending comment${p.comments.length === 1 ? '' : 's'} on #${o.id}${o.status ? ` as ${o.status.toLowerCase()}` : ''}`,
    predicted: 'update',
    reasons: p.comments.map((c) => `pending #${c.id}: ${c.text.split('\n')[0]}`),
    blocking:
      p.comments.length || o.text || o.status
        ? []
        : ['you have no pending comments, and neither --body nor a status was given'],
  };
  return { p, change };
}

export const complete = defineCommand<CompleteOptions, PrReviewBatchOutput>({
  name: 'pr review complete',
  summary: 'Publish your pending review comments at once, optionally approving or asking for work',
  args: [prIdArg],
  flags: {
    approve: { type: 'boolean', description: 'Approve while publishing' },
    needsWork: { type: 'boolean', description: 'Mark as needs work while publishing' },
    body: {
      type: 'string',
      shortFlag: 'b',
      value: 'TEXT',
      description: 'A general comment to publish with the batch',
    },
  },
  outputSchema: 'pr-review-batch',
  effect: 'mutating',
  examples: [
    'bbdc pr review complete 42 --approve',
    'bbdc pr review complete 42 --needs-work --body "See inline comments"',
  ],
  parse: ({ args, flags }) => {
    if (flags.approve && flags.needsWork) throw new UsageError('pass --approve or --needs-work, not both');
    return {
      id: parsePrId(args[0]),
      status: flags.approve ? 'APPROVED' : flags.needsWork ? 'NEEDS_WORK' : undefined,
      text: flags.body as string | undefined,
    };
  },
  plan: async (o, deps) => planOf((await prepareComplete(o, deps)).change),
  async run(o, deps) {
    const { p, change } = await prepareComplete(o, deps);
    await apply(change);
    return {
      pullRequest: o.id,
      repository: p.repository,
      comments: p.comments,
      count: p.comments.length,
      action: 'published',
      ...(o.status && { status: o.status }),
    };
  },
  human: print,
});

async function prepareDiscard(id: Id, deps: CommandDeps) {
  const p = await pending(deps, id);
  const change: Change = {
    client: p.client,
    intent: `bbdc pr review discard ${id}`,
    host: p.repo.host.url,
    target: { type: 'pull-request', id: `${p.repository}#${id}` },
    request: { method: 'DELETE', path: p.path },
    description: `discard ${p.comments.length} pending comment${p.comments.length === 1 ? '' : 's'} on #${id}`,
    predicted: p.comments.length ? 'delete' : 'no-op',
    reasons: p.comments.map((c) => `pending #${c.id}: ${c.text.split('\n')[0]}`),
  };
  return { p, change };
}

export const discard = defineCommand<{ id: Id }, PrReviewBatchOutput>({
  name: 'pr review discard',
  summary: 'Discard your pending review comments of a pull request',
  args: [prIdArg],
  flags: {},
  outputSchema: 'pr-review-batch',
  effect: 'mutating',
  examples: ['bbdc pr review discard 42'],
  parse: ({ args }) => ({ id: parsePrId(args[0]) }),
  plan: async (o, deps) => planOf((await prepareDiscard(o.id, deps)).change),
  async run(o, deps) {
    const { p, change } = await prepareDiscard(o.id, deps);
    await apply(change);
    return {
      pullRequest: o.id,
      repository: p.repository,
      comments: p.comments,
      count: p.comments.length,
      action: 'discarded',
    };
  },
  human: print,
});
