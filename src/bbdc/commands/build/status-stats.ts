import type { BuildStatusStatsOutput } from '../../../../generated/types/cli/output/build-status-stats.ts';
import { UsageError } from '../../../core/errors.ts';
import { fullCommitId } from '../../api/builds.ts';
import { defineCommand } from '../../command.ts';

type Stats = {
  successful?: number;
  failed?: number;
  inProgress?: number;
  cancelled?: number;
  unknown?: number;
};

/** `bbdc build status stats <commit>...`: how many builds passed, failed or run, per commit, in one request. */
export const command = defineCommand<{ commits: string[] }, BuildStatusStatsOutput>({
  name: 'build status stats',
  summary: 'Count the build states of one or more commits',
  description:
    'One request for any number of commits (POST /rest/build-status/latest/commits/stats, a read).',
  args: [
    {
      name: 'commit',
      required: true,
      variadic: true,
      description: 'Full 40-character commit ids (one or more)',
    },
  ],
  flags: {},
  outputSchema: 'build-status-stats',
  effect: 'safe',
  examples: ['bbdc build status stats $(git rev-parse HEAD HEAD~1)'],
  parse: ({ args }) => {
    if (!args.length) throw new UsageError('name at least one commit');
    return { commits: [...new Set(args.map(fullCommitId))] };
  },
  async run(o, deps) {
    const client = await deps.client();
    const res = await client.request<Record<string, Stats>>(
      'POST',
      '/rest/build-status/latest/commits/stats',
      {
        body: o.commits,
      },
    );
    return {
      commits: o.commits.map((commit) => {
        const s = res.data?.[commit] ?? {};
        return {
          commit,
          successful: s.successful ?? 0,
          failed: s.failed ?? 0,
          inProgress: s.inProgress ?? 0,
          cancelled: s.cancelled ?? 0,
          unknown: s.unknown ?? 0,
        };
      }),
    };
  },
  human(d, ui) {
    ui.table(
      ['commit', 'successful', 'failed', 'in progress', 'cancelled', 'unknown'],
      d.commits.map((c) => [
        c.commit.slice(0, 11),
        ...[c.successful, c.failed, c.inProgress, c.cancelled, c.unknown].map(String),
      ]),
    );
  },
});
