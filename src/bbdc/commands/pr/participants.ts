import type { PrParticipantsOutput } from '../../../../generated/types/cli/output/pr-participants.ts';
import type { Id } from '../../api/ids.ts';
import { collectPages } from '../../api/paging.ts';
import { parsePrId, prPath, type RestParticipant } from '../../api/pull-requests.ts';
import { defineCommand } from '../../command.ts';
import { reviewStatus } from '../../output/pull-request.ts';
import { prContext, prIdArg } from './pr-context.ts';

/** `bbdc pr participants <id>`: the author, reviewers and participants with their review status. */
export const command = defineCommand<{ id: Id }, PrParticipantsOutput>({
  name: 'pr participants',
  summary: 'List the author, reviewers and participants of a pull request with their status',
  args: [prIdArg],
  flags: {},
  outputSchema: 'pr-participants',
  effect: 'safe',
  examples: ['bbdc pr participants 42'],
  parse: ({ args }) => ({ id: parsePrId(args[0]) }),
  async run(o, deps) {
    const { repo, client } = await prContext(deps);
    const { values } = await collectPages<RestParticipant>(
      client,
      prPath(repo, o.id, '/participants'),
      {},
      undefined,
    );
    return {
      pullRequest: o.id,
      repository: `${repo.project}/${repo.slug}`,
      // The 9.4 document does not require a participant's user: one without is left out, not a crash.
      participants: values
        .flatMap((p) => (p.user ? [{ ...p, user: p.user }] : []))
        .map((p) => ({
          name: p.user.name,
          ...(p.user.displayName && { displayName: p.user.displayName }),
          role: p.role,
          status: p.status ?? (p.approved ? 'APPROVED' : 'UNAPPROVED'),
        })),
    };
  },
  human(d, ui) {
    ui.table(
      ['user', 'role', 'status'],
      d.participants.map((p) => [
        p.name,
        p.role.toLowerCase(),
        p.role === 'AUTHOR' ? '-' : reviewStatus(p.status),
      ]),
    );
  },
});
