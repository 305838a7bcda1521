import type { PrOutput } from '../../../../generated/types/cli/output/pr.ts';
import { UsageError } from '../../../core/errors.ts';
import type { BitbucketClient } from '../../api/client.ts';
import type { Page } from '../../api/paging.ts';
import { type RestPullRequest, toPullRequest } from '../../api/pull-requests.ts';
import { repoPath } from '../../api/repositories.ts';
import { type CommandDeps, defineCommand, type RepoContext } from '../../command.ts';
import { makePlan } from '../../output/plan.ts';
import {
  canAskTitle,
  currentBranch,
  type DescriptionSource,
  descriptionFlags,
  descriptionSource,
  readDescription,
  readTitle,
} from './description-input.ts';
import { prContext } from './pr-context.ts';
import { assertAllFound, lookUpUsers, splitNames } from './reviewer-names.ts';
import { notPushedReason, push, sourceOnServer } from './source-branch.ts';

type Options = {
  title?: string;
  description: DescriptionSource;
  from?: string;
  to?: string;
  draft: boolean;
  reviewers: string[];
  push: boolean;
};

const refId = (branch: string) => (branch.startsWith('refs/') ? branch : `refs/heads/${branch}`);

async function branches(o: Options, deps: CommandDeps, client: BitbucketClient, repo: RepoContext) {
  const from = o.from ?? (await currentBranch(deps, '--from'));
  const to =
    o.to ??
    (await client.get<{ displayId: string }>(`${repoPath(repo.project, repo.slug)}/default-branch`))
      .displayId;
  return { from: from.replace(/^refs\/heads\//, ''), to: to.replace(/^refs\/heads\//, '') };
}

function body(o: Options, title: string, description: string, from: string, to: string, repo: RepoContext) {
  const repository = { slug: repo.slug, project: { key: repo.project } };
  return {
    title,
    ...(description && { description }),
    ...(o.draft && { draft: true }),
    fromRef: { id: refId(from), repository },
    toRef: { id: refId(to), repository },
    reviewers: o.reviewers.map((name) => ({ user: { name } })),
  };
}

/** `bbdc pr create`: opens a pull request from the current branch into the default one; reviewers are checked first. */
export const command = defineCommand<Options, PrOutput>({
  name: 'pr create',
  summary: 'Create a pull request',
  description:
    'The description comes from --description or --description-file (- for stdin), else from piped stdin, else from $EDITOR on a terminal. Every reviewer is checked to exist before anything is created.',
  args: [],
  flags: {
    title: { type: 'string', shortFlag: 't', value: 'TEXT', description: 'Title (asked for on a terminal)' },
    ...descriptionFlags,
    from: { type: 'string', value: 'BRANCH', description: 'Source branch (default: the current branch)' },
    to: { type: 'string', value: 'BRANCH', description: "Target branch (default: the repository's default)" },
    draft: { type: 'boolean', description: 'Create it as a draft' },
    reviewers: { type: 'string', shortFlag: 'r', value: 'USERS', description: 'Comma-separated usernames' },
    push: {
      type: 'boolean',
      description:
        'Push the source branch first when the server does not have it (git push -u REMOTE BRANCH)',
    },
  },
  outputSchema: 'pr',
  effect: 'mutating',
  examples: [
    'bbdc pr create --title "Add login" --reviewers alice,bob',
    'git log -1 --format=%b | bbdc pr create -t "Fix crash" --to release/2.0 --draft',
  ],
  parse: ({ flags }) => ({
    title: flags.title as string | undefined,
    description: descriptionSource(flags),
    from: flags.from as string | undefined,
    to: flags.to as string | undefined,
    draft: flags.draft === true,
    reviewers: splitNames(flags.reviewers as string | undefined),
    push: flags.push === true,
  }),
  async plan(o, deps) {
    const { repo, client } = await prContext(deps);
    const { from, to } = await branches(o, deps, client, repo);
    const [{ missing }, open, source] = await Promise.all([
      lookUpUsers(client, o.reviewers),
      client.get<Page<RestPullRequest>>(`${repoPath(repo.project, repo.slug)}/pull-requests`, {
        state: 'OPEN',
        at: refId(to),
        direction: 'INCOMING',
        limit: 1000,
      }),
      sourceOnServer(deps, client, repo, from),
    ]);
    const existing = open.values.find((p) => p.fromRef.id === refId(from));
    const me = client.username;
    // Every reason the real run would stop, not only the first: the run asks for a title only on a terminal.
    const blocking = [
      ...(o.title === undefined && !canAskTitle(deps)
        ? ['--title is missing and there is no terminal to ask for it on: pass --title TEXT']
        : []),
      ...(!source.pushed && !o.push ? [notPushedReason(from, repo, source.command)] : []),
      ...missing.map((m) => `--reviewers: no such user "${m}"`),
      ...(from === to ? [`the source and target are both ${from}`] : []),
      ...(existing ? [`pull request #${existing.id} from ${from} into ${to} is already open`] : []),
      ...(me && o.reviewers.includes(me) ? [`${me} is the author and cannot review it`] : []),
    ];
    const title = o.title ?? '(asked for when run)';
    const description = await readDescription(o.description, deps, false);
    return makePlan({
      intent: `bbdc pr create ${from} -> ${to}`,
      target: {
        type: 'pull-request',
        id: `${repo.project}/${repo.slug}:${from}->${to}`,
        host: repo.host.url,
      },
      action: {
        type: 'http',
        description: `create ${o.draft ? 'draft ' : ''}pull request "${title}" from ${from} into ${to}`,
        method: 'POST',
        path: `${repoPath(repo.project, repo.slug)}/pull-requests`,
        body: body(o, title, description, from, to, repo),
      },
      predictedAction: blocking.length ? 'conflict' : 'create',
      reasons: [
        ...(me ? [`authenticated as ${me}`] : []),
        ...(!source.pushed && o.push ? [`pushes ${from} first: ${source.command.join(' ')}`] : []),
        ...(o.reviewers.length && !missing.length ? [`reviewers exist: ${o.reviewers.join(', ')}`] : []),
      ],
      blockingReasons: blocking,
    });
  },
  async run(o, deps) {
    const title = await readTitle(o.title, deps);
    const { repo, client } = await prContext(deps);
    const [{ missing }, { from, to }] = await Promise.all([
      lookUpUsers(client, o.reviewers),
      branches(o, deps, client, repo),
    ]);
    assertAllFound(missing, '--reviewers');
    const source = await sourceOnServer(deps, client, repo, from);
    if (!source.pushed) {
      if (!o.push) throw new UsageError(notPushedReason(from, repo, source.command));
      await push(deps, source.command);
    }
    const description = await readDescription(o.description, deps, true);
    const res = await client.request<RestPullRequest>(
      'POST',
      `${repoPath(repo.project, repo.slug)}/pull-requests`,
      { body: body(o, title, description, from, to, repo) },
    );
    return toPullRequest(res.data, repo);
  },
  human(d, ui) {
    ui.line(
      `Created ${d.draft ? 'draft ' : ''}pull request #${d.id}: ${d.title} (${d.from.branch} → ${d.to.branch})`,
    );
    if (d.url) ui.line(d.url);
  },
});
