import type { PrOutput } from '../../../../generated/types/cli/output/pr.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import { statusOf } from '../../api/errors.ts';
import type { Id } from '../../api/ids.ts';
import { mergeStrategies } from '../../api/pull-request-settings.ts';
import {
  fetchPullRequest,
  parsePrId,
  prPath,
  type RestPullRequest,
  readMergeability,
  toPullRequest,
} from '../../api/pull-requests.ts';
import { defineCommand } from '../../command.ts';
import { planPrChange, prContext, prIdArg, versionFlag } from './pr-context.ts';

type Options = { id: Id; strategy?: string; message?: string; version?: number };

const body = (o: Options) => ({
  ...(o.strategy && { strategyId: o.strategy }),
  ...(o.message && { message: o.message }),
});

/** `bbdc pr merge <id>`: merges at the version just read (or --version); a stale version or a veto is a conflict. */
export const command = defineCommand<Options, PrOutput>({
  name: 'pr merge',
  summary: 'Merge a pull request',
  description:
    "The pull request's version is read first and sent with the merge, so a change made in between fails as a conflict (exit 5) instead of merging something unseen. --version pins the version you reviewed.",
  args: [prIdArg],
  flags: {
    strategy: {
      type: 'string',
      value: 'STRATEGY',
      choices: mergeStrategies,
      description: "Merge strategy (default: the repository's)",
    },
    message: { type: 'string', shortFlag: 'm', value: 'TEXT', description: 'Merge commit message' },
    version: {
      type: 'string',
      value: 'N',
      description: 'Merge only if the pull request is still at this version',
    },
  },
  outputSchema: 'pr',
  effect: 'mutating',
  needs: { permission: 'REPO_WRITE', action: 'merging' },
  examples: ['bbdc pr merge 42', 'bbdc pr merge 42 --strategy squash --message "Add login (#42)"'],
  parse: ({ args, flags }) => ({
    id: parsePrId(args[0]),
    strategy: flags.strategy as string | undefined,
    message: flags.message as string | undefined,
    version: versionFlag(flags.version),
  }),
  plan: (o, deps) =>
    planPrChange(deps, o.id, `bbdc pr merge ${o.id}`, async (pr, { repo, client }) => {
      const m = pr.state === 'OPEN' ? await readMergeability(client, repo, o.id) : undefined;
      const version = o.version ?? pr.version;
      return {
        description: `merge pull request #${o.id} (${pr.fromRef.displayId} into ${pr.toRef.displayId})${o.strategy ? ` with ${o.strategy}` : ''}`,
        method: 'POST',
        path: `${prPath(repo, o.id, '/merge')}?version=${version}`,
        body: body(o),
        predictedAction: 'update',
        reasons: m && !m.known ? [`mergeability is unknown: ${m.reason}`] : [],
        blockingReasons: [
          ...(pr.state !== 'OPEN' ? [`pull request #${o.id} is ${pr.state}`] : []),
          ...(version !== pr.version
            ? [`pull request #${o.id} is at version ${pr.version}, not ${version}`]
            : []),
          ...(m?.conflicted ? ['it conflicts with the target branch'] : []),
          ...(m?.blockers ?? []).map((b) => `${b.summary}${b.detail ? `: ${b.detail}` : ''}`),
        ],
      };
    }),
  async run(o, deps) {
    const { repo, client } = await prContext(deps);
    const pr = await fetchPullRequest(client, repo, o.id);
    try {
      const res = await client.request<RestPullRequest>('POST', prPath(repo, o.id, '/merge'), {
        query: { version: o.version ?? pr.version },
        body: body(o),
      });
      return toPullRequest(res.data, repo);
    } catch (error) {
      if (statusOf(error) !== 409) throw error;
      const m = await readMergeability(client, repo, o.id).catch(() => undefined);
      throw new RealmforgeError(
        'conflict',
        `pull request #${o.id} was not merged: ${(error as Error).message}`,
        {
          cause: error,
          details: [
            ...(m?.conflicted ? ['it conflicts with the target branch'] : []),
            ...(m?.blockers ?? []).map((b) => `${b.summary}${b.detail ? `: ${b.detail}` : ''}`),
          ],
        },
      );
    }
  },
  human(d, ui) {
    ui.line(`Merged pull request #${d.id}: ${d.title} (${d.from.branch} → ${d.to.branch})`);
  },
});
