import type { PrOutput } from '../../../../generated/types/cli/output/pr.ts';
import { UsageError } from '../../../core/errors.ts';
import type { Id } from '../../api/ids.ts';
import {
  fetchPullRequest,
  parsePrId,
  prPath,
  type RepoRef,
  type RestPullRequest,
  toPullRequest,
} from '../../api/pull-requests.ts';
import { type CommandDeps, defineCommand } from '../../command.ts';
import {
  type DescriptionSource,
  descriptionFlags,
  descriptionSource,
  hasDescription,
  readDescription,
} from './description-input.ts';
import { planPrChange, prContext, prIdArg } from './pr-context.ts';

type Options = { id: Id; title?: string; description: DescriptionSource; draft?: boolean; to?: string };

const refId = (branch: string) => (branch.startsWith('refs/') ? branch : `refs/heads/${branch}`);

// Live servers drop every reviewer when an update omits `reviewers`, so the current ones are always sent.
function body(pr: RestPullRequest, o: Options, description: string | undefined) {
  return {
    version: pr.version,
    title: o.title ?? pr.title,
    ...((description ?? pr.description) !== undefined && { description: description ?? pr.description }),
    draft: o.draft ?? pr.draft === true,
    toRef: { id: o.to ? refId(o.to) : pr.toRef.id },
    reviewers: (pr.reviewers ?? []).flatMap((r) => (r.user?.name ? [{ user: { name: r.user.name } }] : [])),
  };
}

function changes(pr: RestPullRequest, o: Options, description: string | undefined): string[] {
  return [
    ...(o.title !== undefined && o.title !== pr.title ? [`title to "${o.title}"`] : []),
    ...(description !== undefined && description !== (pr.description ?? '') ? ['description'] : []),
    ...(o.draft !== undefined && o.draft !== (pr.draft === true) ? [o.draft ? 'draft on' : 'draft off'] : []),
    ...(o.to && refId(o.to) !== pr.toRef.id ? [`target to ${o.to.replace(/^refs\/heads\//, '')}`] : []),
  ];
}

/**
 * The one PUT both the dry-run and the real run use: every field the user did not give is sent as the server has
 * it (a PUT replaces the pull request, so an omitted description would be erased).
 */
async function prepare(pr: RestPullRequest, repo: RepoRef, o: Options, deps: CommandDeps) {
  const description = hasDescription(o.description)
    ? await readDescription(o.description, deps, false)
    : undefined;
  return {
    request: { method: 'PUT', path: prPath(repo, o.id), body: body(pr, o, description) },
    changed: changes(pr, o, description),
  };
}

/** `bbdc pr update <id>`: changes the title, description, draft state or target; reviewers are kept. */
export const command = defineCommand<Options, PrOutput>({
  name: 'pr update',
  summary: 'Change the title, description, draft state or target branch of a pull request',
  args: [prIdArg],
  flags: {
    title: { type: 'string', shortFlag: 't', value: 'TEXT', description: 'New title' },
    ...descriptionFlags,
    draft: { type: 'boolean', description: 'Mark as draft (--no-draft: ready for review)' },
    to: { type: 'string', value: 'BRANCH', description: 'New target branch' },
  },
  outputSchema: 'pr',
  effect: 'mutating',
  examples: [
    'bbdc pr update 42 --title "Better title"',
    'bbdc pr update 42 --no-draft',
    'bbdc pr update 42 --to release/2.0',
  ],
  parse: ({ args, flags }) => {
    const o: Options = {
      id: parsePrId(args[0]),
      title: flags.title as string | undefined,
      description: descriptionSource(flags),
      draft: flags.draft as boolean | undefined,
      to: flags.to as string | undefined,
    };
    if (o.title === undefined && !hasDescription(o.description) && o.draft === undefined && !o.to)
      throw new UsageError('nothing to update: pass --title, --description, --draft/--no-draft or --to');
    return o;
  },
  plan: (o, deps) =>
    planPrChange(deps, o.id, `bbdc pr update ${o.id}`, async (pr, { repo }) => {
      const { request, changed } = await prepare(pr, repo, o, deps);
      return {
        description: changed.length
          ? `change ${changed.join(', ')} of pull request #${o.id}`
          : `update pull request #${o.id}`,
        ...request,
        predictedAction: changed.length ? 'update' : 'no-op',
        blockingReasons: pr.state === 'OPEN' ? [] : [`pull request #${o.id} is ${pr.state}`],
      };
    }),
  async run(o, deps) {
    const { repo, client } = await prContext(deps);
    const pr = await fetchPullRequest(client, repo, o.id);
    const { request } = await prepare(pr, repo, o, deps);
    const res = await client.request<RestPullRequest>(request.method, request.path, { body: request.body });
    return toPullRequest(res.data, repo);
  },
  human(d, ui) {
    ui.line(
      `Updated pull request #${d.id}: ${d.title} (${d.from.branch} → ${d.to.branch}${d.draft ? ', draft' : ''})`,
    );
  },
});
