import type { PrReviewOutput } from '../../../../generated/types/cli/output/pr-review.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import type { BitbucketClient } from '../../api/client.ts';
import type { Id } from '../../api/ids.ts';
import { segment, userPath } from '../../api/path.ts';
import {
  fetchPullRequest,
  parsePrId,
  prPath,
  type RestParticipant,
  type RestPullRequest,
  type RestUser,
  userOf,
} from '../../api/pull-requests.ts';
import { type CommandDefinition, defineCommand } from '../../command.ts';
import { reviewStatus } from '../../output/pull-request.ts';
import { planPrChange, prContext, prIdArg } from './pr-context.ts';

type Options = { id: Id };
type Status = RestParticipant['status'];

/** Who the caller is in this pull request: name and slug from X-AUSERNAME, then their participant entry. */
async function me(client: BitbucketClient, pr: RestPullRequest) {
  const name = client.username;
  if (!name)
    throw new RealmforgeError('auth', 'reviewing needs you to be logged in: run `bbdc auth login <host>`');
  const people = [pr.author, ...(pr.reviewers ?? []), ...(pr.participants ?? [])];
  const entry = people.find((p) => p?.user?.name === name);
  const slug = entry?.user?.slug ?? (await client.get<RestUser>(userPath('your username', name))).slug;
  return { name, slug: slug ?? name, entry };
}

/** The PUT body, for the dry-run and the run alike: the status, and the commit reviewed when the server names it. */
const reviewBody = (pr: RestPullRequest, status: Status) => ({
  status,
  ...(pr.fromRef.latestCommit && { lastReviewedCommit: pr.fromRef.latestCommit }),
});

/** Builds `bbdc pr review approve|unapprove|needs-work <id>`: PUT .../participants/{your slug} {status}. */
export function reviewCommand(
  verb: string,
  status: Status,
  summary: string,
): CommandDefinition<Options, PrReviewOutput> {
  return defineCommand<Options, PrReviewOutput>({
    name: `pr review ${verb}`,
    summary,
    args: [prIdArg],
    flags: {},
    outputSchema: 'pr-review',
    effect: 'mutating',
    examples: [`bbdc pr review ${verb} 42`],
    parse: ({ args }) => ({ id: parsePrId(args[0]) }),
    plan: (o, deps) =>
      planPrChange(deps, o.id, `bbdc pr review ${verb} ${o.id}`, async (pr, { repo, client }) => {
        const self = await me(client, pr);
        const current = self.entry?.status ?? 'UNAPPROVED';
        return {
          description: `set your review of pull request #${o.id} to ${reviewStatus(status)}`,
          method: 'PUT',
          path: prPath(repo, o.id, `/participants/${segment('your user slug', self.slug)}`),
          body: reviewBody(pr, status),
          predictedAction: current === status && self.entry ? 'no-op' : 'update',
          reasons: [`your review is ${reviewStatus(current)}`],
          blockingReasons: [
            ...(self.entry?.role === 'AUTHOR' ? [`${self.name} is the author and cannot review it`] : []),
            ...(pr.state !== 'OPEN' ? [`pull request #${o.id} is ${pr.state}`] : []),
          ],
        };
      }),
    async run(o, deps) {
      const { repo, client } = await prContext(deps);
      const pr = await fetchPullRequest(client, repo, o.id);
      const self = await me(client, pr);
      const res = await client.request<RestParticipant>(
        'PUT',
        prPath(repo, o.id, `/participants/${segment('your user slug', self.slug)}`),
        { body: reviewBody(pr, status) },
      );
      const p = res.data;
      return {
        pullRequest: o.id,
        repository: `${repo.project}/${repo.slug}`,
        // The answer's fields are optional in the document: what was sent stands in for what is missing.
        user: userOf(p?.user) ?? { name: self.name },
        status: p?.status ?? status,
        role:
          p?.role === 'REVIEWER' || self.entry?.role === 'REVIEWER'
            ? ('REVIEWER' as const)
            : ('PARTICIPANT' as const),
      };
    },
    human(d, ui) {
      ui.line(`Your review of pull request #${d.pullRequest} is now: ${reviewStatus(d.status)}`);
    },
  });
}
