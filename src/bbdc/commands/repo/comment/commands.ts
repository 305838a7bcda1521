// `repo comment list|create|update|delete`: comments on a commit (Bitbucket's commit page), built in one place.
import type { CommitCommentsOutput } from '../../../../../generated/types/cli/output/commit-comments.ts';
import type { PrCommentOutput } from '../../../../../generated/types/cli/output/pr-comment.ts';
import { type RestComment, toComment } from '../../../api/comments.ts';
import type { Id } from '../../../api/ids.ts';
import { collectPages } from '../../../api/paging.ts';
import { segment } from '../../../api/path.ts';
import { repoPath } from '../../../api/repositories.ts';
import { type CommandDeps, defineCommand } from '../../../command.ts';
import { apply, type Change, planOf } from '../../../output/change.ts';
import { printThread } from '../../../output/comment-thread.ts';
import { bodyFlags, bodySource, parseCommentId, readBody } from '../../pr/comment-body.ts';
import type { DescriptionSource } from '../../pr/description-input.ts';

const commitArg = { name: 'commit', required: true, description: 'Commit id' };
const commentArg = {
  name: 'comment',
  required: true,
  description: 'Comment id (see bbdc repo comment list)',
};

async function context(deps: CommandDeps, commit: string) {
  const repo = await deps.repo();
  const client = await deps.client(repo.host);
  return {
    repo,
    client,
    base: `${repoPath(repo.project, repo.slug)}/commits/${segment('commit', commit)}/comments`,
    repository: `${repo.project}/${repo.slug}`,
  };
}

export const list = defineCommand<{ commit: string; path?: string }, CommitCommentsOutput>({
  name: 'repo comment list',
  summary: 'List the comments on a commit',
  args: [commitArg],
  flags: { path: { type: 'string', value: 'PATH', description: 'Only comments on this file' } },
  outputSchema: 'commit-comments',
  effect: 'safe',
  examples: ['bbdc repo comment list 1a2b3c4d'],
  parse: ({ args, flags }) => ({ commit: String(args[0]), path: flags.path as string | undefined }),
  async run(o, deps) {
    const c = await context(deps, o.commit);
    const { values } = await collectPages<RestComment>(c.client, c.base, { path: o.path }, undefined);
    return { repository: c.repository, commit: o.commit, comments: values.map((x) => toComment(x)) };
  },
  human(d, ui) {
    if (!d.comments.length) ui.notice(`No comments on ${d.commit}.`);
    for (const c of d.comments) printThread(c, ui);
  },
});

type CreateOptions = {
  commit: string;
  body: DescriptionSource;
  path?: string;
  line?: Id;
  replyTo?: Id;
};

async function prepareCreate(o: CreateOptions, deps: CommandDeps): Promise<Change> {
  const text = await readBody(o.body, deps);
  const c = await context(deps, o.commit);
  return {
    client: c.client,
    intent: `bbdc repo comment create ${o.commit}`,
    host: c.repo.host.url,
    target: { type: 'commit', id: `${c.repository}@${o.commit}` },
    request: {
      method: 'POST',
      path: c.base,
      body: {
        text,
        ...(o.replyTo && { parent: { id: o.replyTo } }),
        ...(o.path && {
          anchor: { path: o.path, ...(o.line && { line: o.line, lineType: 'CONTEXT', fileType: 'TO' }) },
        }),
      },
    },
    description: `comment on commit ${o.commit}${o.path ? ` (${o.path}${o.line ? `:${o.line}` : ''})` : ''}`,
    predicted: 'create',
    reasons: [],
  };
}

export const create = defineCommand<CreateOptions, PrCommentOutput>({
  name: 'repo comment create',
  summary: 'Comment on a commit (or on a file line of it, or reply)',
  args: [commitArg],
  flags: {
    ...bodyFlags,
    path: { type: 'string', value: 'PATH', description: 'Comment on this file' },
    line: { type: 'string', value: 'N', description: 'The line in the file (with --path)' },
    replyTo: { type: 'string', value: 'COMMENT', description: 'Reply to this comment id' },
  },
  outputSchema: 'pr-comment',
  effect: 'mutating',
  examples: ['bbdc repo comment create 1a2b3c4d --body "Why this change?"'],
  parse: ({ args, flags }) => ({
    commit: String(args[0]),
    body: bodySource(flags),
    path: flags.path as string | undefined,
    line: flags.line === undefined ? undefined : parseCommentId(String(flags.line), '--line'),
    replyTo:
      flags.replyTo === undefined ? undefined : parseCommentId(String(flags.replyTo), '--reply-to comment'),
  }),
  plan: async (o, deps) => planOf(await prepareCreate(o, deps)),
  async run(o, deps) {
    return toComment((await apply<RestComment>(await prepareCreate(o, deps)))!.data);
  },
  human(d, ui) {
    ui.line(`Added comment #${d.id}`);
  },
});

type EditOptions = { commit: string; comment: Id; body?: DescriptionSource };

async function prepareEdit(o: EditOptions, verb: 'update' | 'delete', deps: CommandDeps) {
  const c = await context(deps, o.commit);
  const path = `${c.base}/${o.comment}`;
  const current = await c.client.get<RestComment>(path);
  const text = verb === 'update' ? await readBody(o.body!, deps) : undefined;
  const replies = current.comments?.length ?? 0;
  const change: Change = {
    client: c.client,
    intent: `bbdc repo comment ${verb} ${o.commit} ${o.comment}`,
    host: c.repo.host.url,
    target: { type: 'comment', id: `${c.repository}@${o.commit}/${o.comment}` },
    request:
      verb === 'update'
        ? { method: 'PUT', path, body: { version: current.version, text } }
        : { method: 'DELETE', path, query: { version: current.version } },
    description: `${verb} comment ${o.comment} on commit ${o.commit}`,
    predicted: verb === 'delete' ? 'delete' : current.text === text ? 'no-op' : 'update',
    reasons: [`the comment is at version ${current.version}`],
    blocking:
      verb === 'delete' && replies ? [`comment ${o.comment} has replies; Bitbucket keeps threads whole`] : [],
  };
  return { c, current, change };
}

export const update = defineCommand<EditOptions, PrCommentOutput>({
  name: 'repo comment update',
  summary: 'Edit a comment on a commit',
  args: [commitArg, commentArg],
  flags: bodyFlags,
  outputSchema: 'pr-comment',
  effect: 'mutating',
  examples: ['bbdc repo comment update 1a2b3c4d 12 --body "Fixed wording"'],
  parse: ({ args, flags }) => ({
    commit: String(args[0]),
    comment: parseCommentId(args[1], 'comment'),
    body: bodySource(flags),
  }),
  plan: async (o, deps) => planOf((await prepareEdit(o, 'update', deps)).change),
  async run(o, deps) {
    const p = await prepareEdit(o, 'update', deps);
    return toComment((await apply<RestComment>(p.change))?.data ?? p.current);
  },
  human(d, ui) {
    ui.line(`Comment #${d.id} is at version ${d.version}`);
  },
});

export const remove = defineCommand<EditOptions, CommitCommentsOutput>({
  name: 'repo comment delete',
  summary: 'Delete a comment on a commit that has no replies',
  args: [commitArg, commentArg],
  flags: {},
  outputSchema: 'commit-comments',
  effect: 'mutating',
  examples: ['bbdc repo comment delete 1a2b3c4d 12'],
  parse: ({ args }) => ({ commit: String(args[0]), comment: parseCommentId(args[1], 'comment') }),
  plan: async (o, deps) => planOf((await prepareEdit(o, 'delete', deps)).change),
  async run(o, deps) {
    const p = await prepareEdit(o, 'delete', deps);
    await apply(p.change);
    return { repository: p.c.repository, commit: o.commit, comments: [toComment(p.current)], deleted: true };
  },
  human(d, ui) {
    ui.line(`Deleted comment #${d.comments[0]?.id} on ${d.commit}`);
  },
});
