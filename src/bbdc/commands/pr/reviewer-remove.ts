import type { PrReviewerOutput } from '../../../../generated/types/cli/output/pr-reviewer.ts';
import type { Id } from '../../api/ids.ts';
import { segment } from '../../api/path.ts';
import {
  fetchPullRequest,
  parsePrId,
  prPath,
  type RestParticipant,
  userOf,
} from '../../api/pull-requests.ts';
import { defineCommand } from '../../command.ts';
import { planPrChange, prContext, prIdArg } from './pr-context.ts';

type Options = { id: Id; user: string };

const reviewer = (list: RestParticipant[] | undefined, user: string) =>
  (list ?? []).find((r) => r.user?.name === user || r.user?.slug === user.toLowerCase());

/** `bbdc pr reviewer remove <id> <user>`: removes a reviewer (DELETE .../participants/{slug}). */
export const command = defineCommand<Options, PrReviewerOutput>({
  name: 'pr reviewer remove',
  summary: 'Remove a reviewer from a pull request',
  args: [prIdArg, { name: 'user', required: true, description: 'Username of the reviewer' }],
  flags: {},
  outputSchema: 'pr-reviewer',
  effect: 'mutating',
  examples: ['bbdc pr reviewer remove 42 alice'],
  parse: ({ args }) => {
    const user = args[1].trim();
    segment('user', user); // refused here, before any call, when it is '.', '..' or empty
    return { id: parsePrId(args[0]), user };
  },
  plan: (o, deps) =>
    planPrChange(deps, o.id, `bbdc pr reviewer remove ${o.id} ${o.user}`, (pr, { repo }) => {
      const r = reviewer(pr.reviewers, o.user);
      return {
        description: `remove ${o.user} as a reviewer of pull request #${o.id}`,
        method: 'DELETE',
        path: prPath(repo, o.id, `/participants/${segment('user', r?.user?.slug ?? o.user)}`),
        predictedAction: r ? 'update' : 'no-op',
        reasons: r ? [] : [`${o.user} is not a reviewer`],
      };
    }),
  async run(o, deps) {
    const { repo, client } = await prContext(deps);
    const pr = await fetchPullRequest(client, repo, o.id);
    const r = reviewer(pr.reviewers, o.user);
    const slug = r?.user?.slug ?? o.user;
    await client.request('DELETE', prPath(repo, o.id, `/participants/${segment('user', slug)}`));
    return {
      pullRequest: o.id,
      repository: `${repo.project}/${repo.slug}`,
      action: 'removed' as const,
      user: userOf(r?.user) ?? { name: o.user },
    };
  },
  human(d, ui) {
    ui.line(`Removed ${d.user.name} as a reviewer of pull request #${d.pullRequest}`);
  },
});
