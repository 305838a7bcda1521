import type { PrAutoMergeOutput } from '../../../../generated/types/cli/output/pr-auto-merge.ts';
import type { Id } from '../../api/ids.ts';
import { mergeStrategies } from '../../api/pull-request-settings.ts';
import {
  fetchPullRequest,
  parsePrId,
  prPath,
  type RepoRef,
  type RestPullRequest,
  readMergeability,
} from '../../api/pull-requests.ts';
import { defineCommand } from '../../command.ts';
import { printAutoMerge, readAutoMerge } from './auto-merge-request.ts';
import { planPrChange, prContext, prIdArg } from './pr-context.ts';

type Options = { id: Id; strategy?: string };

// The 9.4 document requests auto-merge with POST .../merge?version= and `autoMerge: true` in the merge request
// body (RestPullRequestMergeRequest); POST .../auto-merge ("tryAutoMerge") takes no body and only retries a merge
// already requested, and no Atlassian source documents a body for it.
const request = (repo: RepoRef, o: Options, version: number | undefined) => ({
  method: 'POST',
  path: `${prPath(repo, o.id, '/merge')}?${new URLSearchParams({ version: String(version ?? 0) })}`,
  body: { autoMerge: true, ...(o.strategy && { strategyId: o.strategy }) },
});

/** `bbdc pr auto-merge enable <id>`: merge by itself once the merge checks pass (at once if they already do). */
export const command = defineCommand<Options, PrAutoMergeOutput>({
  name: 'pr auto-merge enable',
  summary: 'Merge a pull request automatically once its merge checks pass',
  description: 'If the pull request can merge already, the server merges it at once.',
  args: [prIdArg],
  flags: {
    strategy: { type: 'string', value: 'STRATEGY', choices: mergeStrategies, description: 'Merge strategy' },
  },
  outputSchema: 'pr-auto-merge',
  effect: 'mutating',
  needs: { permission: 'REPO_WRITE', action: 'turning on auto-merge' },
  examples: ['bbdc pr auto-merge enable 42 --strategy squash --dry-run'],
  parse: ({ args, flags }) => ({ id: parsePrId(args[0]), strategy: flags.strategy as string | undefined }),
  plan: (o, deps) =>
    planPrChange(deps, o.id, `bbdc pr auto-merge enable ${o.id}`, async (pr, { repo, client }) => {
      const current = pr.state === 'OPEN' ? await readAutoMerge(client, repo, o.id) : undefined;
      const m = pr.state === 'OPEN' ? await readMergeability(client, repo, o.id) : undefined;
      const same = current && (current.strategyId ?? undefined) === o.strategy;
      return {
        description: `turn on auto-merge for pull request #${o.id}${o.strategy ? ` with ${o.strategy}` : ''}`,
        ...request(repo, o, pr.version),
        predictedAction: same ? 'no-op' : 'update',
        reasons: [
          current ? 'auto-merge is already on' : 'auto-merge is off',
          ...(m?.mergeable ? ['its merge checks pass now, so the server would merge it at once'] : []),
        ],
        blockingReasons: pr.state === 'OPEN' ? [] : [`pull request #${o.id} is ${pr.state}`],
      };
    }),
  async run(o, deps) {
    const { repo, client } = await prContext(deps);
    const pr = await fetchPullRequest(client, repo, o.id);
    const r = request(repo, o, pr.version);
    const res = await client.request<RestPullRequest | undefined>(r.method, r.path.split('?')[0], {
      query: { version: pr.version ?? 0 },
      body: r.body,
    });
    // The answer is the pull request: merged at once when its checks already pass, else still open and waiting.
    const state = res.data?.state;
    const merged = state === 'MERGED';
    return {
      pullRequest: o.id,
      repository: `${repo.project}/${repo.slug}`,
      enabled: !merged,
      ...(o.strategy && { strategy: o.strategy }),
      outcome: merged ? 'MERGED' : 'VETOED',
      ...(state && { state }),
    };
  },
  human: printAutoMerge,
});
