import type { PrRebaseOutput } from '../../../../generated/types/cli/output/pr-rebase.ts';
import type { Id } from '../../api/ids.ts';
import { fetchPullRequest, parsePrId, prPath } from '../../api/pull-requests.ts';
import { type CommandDeps, defineCommand } from '../../command.ts';
import { apply, type Change, planOf } from '../../output/change.ts';
import { prContext, prIdArg } from './pr-context.ts';

type Veto = { summaryMessage?: string; detailedMessage?: string };
type RestRebaseResult = { refChange?: { fromHash?: string; toHash?: string; refId?: string } };

/** The git plugin's path for a pull request's rebase (GET: can it be rebased; POST: rebase it). */
const rebasePath = (repo: { project: string; slug: string }, id: Id) =>
  prPath(repo, id, '/rebase').replace('/rest/api/latest/', '/rest/git/latest/');

/** Reads the pull request and what would stop a rebase, and builds the POST both the plan and the run use. */
async function prepare(id: Id, deps: CommandDeps) {
  const { repo, client } = await prContext(deps);
  const pr = await fetchPullRequest(client, repo, id);
  const { vetoes = [] } = await client.get<{ vetoes?: Veto[] }>(rebasePath(repo, id));
  const change: Change = {
    client,
    intent: `bbdc pr rebase ${id}`,
    host: repo.host.url,
    target: { type: 'pull-request', id: `${repo.project}/${repo.slug}#${id}` },
    request: { method: 'POST', path: rebasePath(repo, id), body: { version: pr.version } },
    description: `rebase the source branch of pull request #${id} onto its target`,
    predicted: 'update',
    reasons: [`pull request #${id} is ${pr.state} at version ${pr.version}`],
    blocking: (Array.isArray(vetoes) ? vetoes : []).map(
      (v) => `${v.summaryMessage ?? 'vetoed'}${v.detailedMessage ? `: ${v.detailedMessage}` : ''}`,
    ),
  };
  return { change, repository: `${repo.project}/${repo.slug}` };
}

/** `bbdc pr rebase <id>`: rebases the pull request's source branch on the server (as the web UI's Rebase button). */
export const command = defineCommand<{ id: Id }, PrRebaseOutput>({
  name: 'pr rebase',
  summary: "Rebase a pull request's source branch onto its target branch, on the server",
  description:
    'Rewrites the source branch (it cannot be undone) after checking what Bitbucket says would stop it (conflicts, a closed pull request, missing write access). Needs REPO_WRITE on the source repository.',
  args: [prIdArg],
  flags: {},
  outputSchema: 'pr-rebase',
  effect: 'mutating',
  needs: { permission: 'REPO_WRITE', action: 'rebasing a pull request' },
  examples: ['bbdc pr rebase 42 --dry-run', 'bbdc pr rebase 42'],
  parse: ({ args }) => ({ id: parsePrId(args[0]) }),
  plan: async (o, deps) => planOf((await prepare(o.id, deps)).change),
  async run(o, deps) {
    const { change, repository } = await prepare(o.id, deps);
    const res = await apply<RestRebaseResult | undefined>(change);
    const ref = res?.data?.refChange;
    return {
      pullRequest: o.id,
      repository,
      rebased: true as const,
      ...(ref?.refId && { branch: ref.refId.replace(/^refs\/heads\//, '') }),
      ...(ref?.fromHash && { from: ref.fromHash }),
      ...(ref?.toHash && { to: ref.toHash }),
    };
  },
  human(d, ui) {
    const moved = d.from && d.to ? ` (${d.from.slice(0, 11)} -> ${d.to.slice(0, 11)})` : '';
    ui.line(`Rebased pull request #${d.pullRequest}${d.branch ? `: ${d.branch}` : ''}${moved}`);
  },
});
