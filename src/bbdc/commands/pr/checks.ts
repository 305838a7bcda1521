import type { PrChecksOutput } from '../../../../generated/types/cli/output/pr-checks.ts';
import { sleep } from '../../../core/clock.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import type { BitbucketClient } from '../../api/client.ts';
import type { Id } from '../../api/ids.ts';
import { insightsPath, type RestInsightReport, toReport } from '../../api/insights.ts';
import { collectPages } from '../../api/paging.ts';
import { readCommitBuilds } from '../../api/pr-builds.ts';
import { fetchPullRequest, parsePrId } from '../../api/pull-requests.ts';
import { defineCommand, type RepoContext } from '../../command.ts';
import { printReports } from '../insights/report-list.ts';
import { positiveInt } from '../repo/list.ts';
import { printBuilds } from './build-status.ts';
import { prContext, prIdArg } from './pr-context.ts';

/**
 * The Code Insights reports of `commit`: shown beside the builds, not in the exit status, so a failure to read them
 * is reported (reportsError) rather than hiding the builds.
 */
async function readReports(
  client: BitbucketClient,
  repo: RepoContext,
  commit: string,
): Promise<Pick<PrChecksOutput, 'reports' | 'reportsError'>> {
  if (!commit) return { reports: [] };
  try {
    const path = insightsPath(repo, commit, '/reports');
    return { reports: (await collectPages<RestInsightReport>(client, path, {}, 100)).values.map(toReport) };
  } catch (error) {
    if (!(error instanceof RealmforgeError)) throw error;
    return { reports: [], reportsError: error.message };
  }
}

type Options = { id: Id; wait: boolean; timeoutSeconds: number; intervalSeconds: number };

const exitCodes = { successful: 0, failed: 1, pending: 8, none: 8 } as const;

/** `bbdc pr checks <id> [--wait]`: exit 0 when every build passed, 1 when one failed, 8 while any is pending. */
export const command = defineCommand<Options, PrChecksOutput>({
  name: 'pr checks',
  summary: 'Check the builds of a pull request, optionally waiting for them to finish',
  description:
    'Code Insights reports of the same commit are shown too. Exit status: 0 all builds passed, 1 a build failed (or was cancelled), 8 builds are still pending (or none reported) when the command ends. With --wait it polls every --interval seconds until no build is pending, a build fails, or --timeout passes.',
  args: [prIdArg],
  flags: {
    wait: { type: 'boolean', description: 'Wait until the builds finish' },
    timeout: { type: 'string', value: 'SECONDS', description: 'Stop waiting after this long (default 1800)' },
    interval: { type: 'string', value: 'SECONDS', description: 'Seconds between polls (default 15)' },
  },
  outputSchema: 'pr-checks',
  effect: 'safe',
  examples: ['bbdc pr checks 42', 'bbdc pr checks 42 --wait --timeout 600 && bbdc pr merge 42'],
  parse: ({ args, flags }) => ({
    id: parsePrId(args[0]),
    wait: flags.wait === true,
    timeoutSeconds: positiveInt(flags.timeout, '--timeout', 1800),
    intervalSeconds: positiveInt(flags.interval, '--interval', 15),
  }),
  async run(o, deps) {
    const { repo, client } = await prContext(deps);
    // Builds and Code Insights reports of the pull request's latest commit, both asked for at once.
    const poll = async () => {
      const commit = (await fetchPullRequest(client, repo, o.id)).fromRef.latestCommit ?? '';
      const [builds, reports] = await Promise.all([
        readCommitBuilds(client, repo, o.id, commit),
        readReports(client, repo, commit),
      ]);
      return { ...builds, ...reports };
    };
    const started = deps.clock.now();
    let polls = 1;
    let result = await poll();
    const pending = () => result.state === 'pending' || result.state === 'none';
    while (o.wait && pending()) {
      const left = o.timeoutSeconds * 1000 - (deps.clock.now() - started);
      if (left <= 0) break;
      deps.logger.log('info', 'waiting for builds', { pullRequest: o.id, ...result.summary });
      await sleep(deps.clock, Math.min(o.intervalSeconds * 1000, left));
      result = await poll();
      polls++;
    }
    return { ...result, waited: o.wait, timedOut: o.wait && pending(), polls };
  },
  human(d, ui) {
    printBuilds(d, ui);
    if (d.reports.length) {
      ui.line();
      ui.line(ui.bold('Code Insights'));
      printReports(d.reports, ui);
    }
    if (d.reportsError) ui.notice(`Code Insights reports could not be read: ${d.reportsError}`);
    if (d.timedOut) ui.notice(`Still pending after waiting ${d.polls} polls; exit status 8.`);
  },
  exitCode: (d) => exitCodes[d.state],
});
