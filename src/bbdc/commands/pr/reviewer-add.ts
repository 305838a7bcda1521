import type { PrReviewerOutput } from '../../../../generated/types/cli/output/pr-reviewer.ts';
import type { Id } from '../../api/ids.ts';
import {
  fetchPullRequest,
  parsePrId,
  prPath,
  type RestParticipant,
  userOf,
} from '../../api/pull-requests.ts';
import { defineCommand } from '../../command.ts';
import { planPrChange, prContext, prIdArg } from './pr-context.ts';
import { assertAllFound, lookUpUsers } from './reviewer-names.ts';

type Options = { id: Id; user: string };

// Live servers add reviewers with POST .../participants {user, role: REVIEWER}; PUT .../participants/{slug}
// only changes the caller's own review status (docs/decisions.md).
const body = (name: string) => ({ user: { name }, role: 'REVIEWER' });

/** `bbdc pr reviewer add <id> <user>`: makes a user a reviewer; the user is checked to exist first. */
export const command = defineCommand<Options, PrReviewerOutput>({
  name: 'pr reviewer add',
  summary: 'Add a reviewer to a pull request',
  args: [prIdArg, { name: 'user', required: true, description: 'Username of the reviewer' }],
  flags: {},
  outputSchema: 'pr-reviewer',
  effect: 'mutating',
  examples: ['bbdc pr reviewer add 42 alice'],
  parse: ({ args }) => ({ id: parsePrId(args[0]), user: args[1].trim() }),
  plan: (o, deps) =>
    planPrChange(deps, o.id, `bbdc pr reviewer add ${o.id} ${o.user}`, async (pr, { repo, client }) => {
      const { found, missing } = await lookUpUsers(client, [o.user]);
      const name = found[0]?.name ?? o.user;
      const already = (pr.reviewers ?? []).some((r) => r.user?.name === name);
      return {
        description: `add ${name} as a reviewer of pull request #${o.id}`,
        method: 'POST',
        path: prPath(repo, o.id, '/participants'),
        body: body(name),
        predictedAction: already ? 'no-op' : 'update',
        blockingReasons: [
          ...missing.map((m) => `no such user "${m}"`),
          ...(pr.author?.user?.name === name ? [`${name} is the author and cannot review it`] : []),
        ],
      };
    }),
  async run(o, deps) {
    const { repo, client } = await prContext(deps);
    const [, { found, missing }] = await Promise.all([
      fetchPullRequest(client, repo, o.id),
      lookUpUsers(client, [o.user]),
    ]);
    assertAllFound(missing, 'user');
    const res = await client.request<RestParticipant>('POST', prPath(repo, o.id, '/participants'), {
      body: body(found[0].name),
    });
    const p = res.data;
    return {
      pullRequest: o.id,
      repository: `${repo.project}/${repo.slug}`,
      action: 'added' as const,
      // The answer's fields are optional in the document: the user looked up stands in for a missing one.
      user: userOf(p?.user) ?? userOf(found[0])!,
      status: p?.status ?? 'UNAPPROVED',
    };
  },
  human(d, ui) {
    ui.line(`Added ${d.user.name} as a reviewer of pull request #${d.pullRequest}`);
  },
});
