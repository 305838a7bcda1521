import type { BuildStatusGetOutput } from '../../../../generated/types/cli/output/build-status-get.ts';
import { buildsPath, fullCommitId, type RestBuildStatus, toBuildStatus } from '../../api/builds.ts';
import { collectPages } from '../../api/paging.ts';
import { defineCommand } from '../../command.ts';

type Options = { commit: string; key?: string };

/** Counts statuses by state, the way the commit page sums them up. */
function countStates(statuses: { state: string }[]): BuildStatusGetOutput['counts'] {
  const counts = { successful: 0, failed: 0, inProgress: 0, other: 0 };
  for (const s of statuses) {
    if (s.state === 'SUCCESSFUL') counts.successful++;
    else if (s.state === 'FAILED') counts.failed++;
    else if (s.state === 'INPROGRESS') counts.inProgress++;
    else counts.other++;
  }
  return counts;
}

/** `bbdc build status get <commit>`: every build status of a commit, or the one with --key in the repository. */
export const command = defineCommand<Options, BuildStatusGetOutput>({
  name: 'build status get',
  summary: 'Show the build statuses of a commit',
  description:
    'Without --key, lists every build status reported for the commit (newest first, the last 100 Bitbucket keeps). With --key, reads that one status from the repository (-R or the git remote).',
  args: [{ name: 'commit', required: true, description: 'Full 40-character commit id' }],
  flags: { key: { type: 'string', value: 'KEY', description: 'Only the status with this build key' } },
  outputSchema: 'build-status-get',
  effect: 'safe',
  examples: [
    'bbdc build status get $(git rev-parse HEAD)',
    'bbdc build status get <sha> --key ci -R PROJ/api --json',
  ],
  parse: ({ args, flags }) => ({ commit: fullCommitId(args[0]), key: flags.key as string | undefined }),
  async run(o, deps) {
    let values: RestBuildStatus[];
    if (o.key) {
      const repo = await deps.repo();
      const client = await deps.client(repo.host);
      values = [
        await client.get<RestBuildStatus>(buildsPath(repo.project, repo.slug, o.commit), { key: o.key }),
      ];
    } else {
      const client = await deps.client();
      values = (
        await collectPages<RestBuildStatus>(client, `/rest/build-status/latest/commits/${o.commit}`, {}, 1000)
      ).values;
    }
    const statuses = values.map(toBuildStatus);
    return { commit: o.commit, statuses, counts: countStates(statuses) };
  },
  human(d, ui) {
    if (d.statuses.length === 0) {
      ui.notice(`No build statuses for ${d.commit}.`);
      return;
    }
    ui.table(
      ['key', 'state', 'name', 'url'],
      d.statuses.map((s) => [s.key, s.state, s.name ?? '', s.url]),
    );
    const c = d.counts;
    ui.notice(
      `${c.successful} successful, ${c.failed} failed, ${c.inProgress} in progress${c.other ? `, ${c.other} other` : ''}`,
    );
  },
});
