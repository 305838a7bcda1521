import type { PrDeleteOutput } from '../../../../generated/types/cli/output/pr-delete.ts';
import type { Id } from '../../api/ids.ts';
import { fetchPullRequest, parsePrId, prPath } from '../../api/pull-requests.ts';
import { defineCommand } from '../../command.ts';
import { planPrChange, prContext, prIdArg } from './pr-context.ts';

type Options = { id: Id };

/** `bbdc pr delete <id>`: deletes a pull request for good, at the version just read. */
export const command = defineCommand<Options, PrDeleteOutput>({
  name: 'pr delete',
  summary: 'Delete a pull request (it cannot be restored)',
  args: [prIdArg],
  flags: {},
  outputSchema: 'pr-delete',
  effect: 'mutating',
  examples: ['bbdc pr delete 42 --dry-run', 'bbdc pr delete 42'],
  parse: ({ args }) => ({ id: parsePrId(args[0]) }),
  plan: (o, deps) =>
    planPrChange(deps, o.id, `bbdc pr delete ${o.id}`, (pr, { repo }) => ({
      description: `delete pull request #${o.id} "${pr.title}"`,
      method: 'DELETE',
      path: prPath(repo, o.id),
      body: { version: pr.version },
      predictedAction: 'delete',
    })),
  async run(o, deps) {
    const { repo, client } = await prContext(deps);
    const pr = await fetchPullRequest(client, repo, o.id);
    await client.request('DELETE', prPath(repo, o.id), { body: { version: pr.version } });
    return { pullRequest: o.id, repository: `${repo.project}/${repo.slug}`, deleted: true as const };
  },
  human(d, ui) {
    ui.line(`Deleted pull request #${d.pullRequest} in ${d.repository}`);
  },
});
