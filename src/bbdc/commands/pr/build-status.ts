import type { PrBuildStatusOutput } from '../../../../generated/types/cli/output/pr-build-status.ts';
import type { Id } from '../../api/ids.ts';
import { readPrBuilds } from '../../api/pr-builds.ts';
import { parsePrId } from '../../api/pull-requests.ts';
import { defineCommand } from '../../command.ts';
import type { Ui } from '../../output/ui.ts';
import { prContext, prIdArg } from './pr-context.ts';

type Options = { id: Id };

/** Prints the builds as a table and the aggregate as one line. */
export function printBuilds(d: PrBuildStatusOutput, ui: Ui): void {
  if (d.builds.length)
    ui.table(
      ['key', 'state', 'name', 'url'],
      d.builds.map((b) => [b.key, b.state, b.name ?? '', b.url ?? '']),
    );
  const s = d.summary;
  ui.line(
    d.builds.length
      ? `${d.state}: ${s.successful} successful, ${s.failed} failed, ${s.inProgress} in progress (commit ${d.commit.slice(0, 11)})`
      : `none: no builds reported for commit ${d.commit.slice(0, 11)}`,
  );
}

/** `bbdc pr build status <id>`: the build statuses of the pull request's latest commit, summed up. */
export const command = defineCommand<Options, PrBuildStatusOutput>({
  name: 'pr build status',
  summary: "Show the build statuses of a pull request's latest commit",
  description:
    'state is failed when any build failed or was cancelled, else pending while any is in progress, else successful (none without builds).',
  args: [prIdArg],
  flags: {},
  outputSchema: 'pr-build-status',
  effect: 'safe',
  examples: ['bbdc pr build status 42', 'bbdc pr build status 42 --json | jq .data.state'],
  parse: ({ args }) => ({ id: parsePrId(args[0]) }),
  async run(o, deps) {
    const { repo, client } = await prContext(deps);
    return readPrBuilds(client, repo, o.id);
  },
  human: printBuilds,
});
