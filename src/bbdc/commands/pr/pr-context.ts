import type { Plan } from '../../../../generated/types/cli/plan.ts';
import { UsageError } from '../../../core/errors.ts';
import type { BitbucketClient } from '../../api/client.ts';
import type { Id } from '../../api/ids.ts';
import { fetchPullRequest, type RestPullRequest } from '../../api/pull-requests.ts';
import type { ArgSpec, CommandDeps, RepoContext } from '../../command.ts';
import { makePlan } from '../../output/plan.ts';

/** The positional argument every `bbdc pr <verb> <id>` command takes. */
export const prIdArg: ArgSpec = { name: 'id', required: true, description: 'Pull request id, e.g. 42' };

/** The repository (from -R, env or git) and a client for its server. */
export async function prContext(deps: CommandDeps): Promise<{ repo: RepoContext; client: BitbucketClient }> {
  const repo = await deps.repo();
  return { repo, client: await deps.client(repo.host) };
}

/** What a planned pull request change would send and what it is predicted to do. */
export type PrPlanParts = {
  description: string;
  method: string;
  path: string;
  body?: unknown;
  predictedAction: Plan['predictedAction'];
  reasons?: string[];
  blockingReasons?: string[];
};

/** Builds a dry-run plan for a change to pull request `id` from read-only calls: the PR is read first. */
export async function planPrChange(
  deps: CommandDeps,
  id: Id,
  intent: string,
  decide: (
    pr: RestPullRequest,
    ctx: { repo: RepoContext; client: BitbucketClient },
  ) => Promise<PrPlanParts> | PrPlanParts,
): Promise<Plan> {
  const ctx = await prContext(deps);
  const pr = await fetchPullRequest(ctx.client, ctx.repo, id);
  const parts = await decide(pr, ctx);
  return makePlan({
    intent,
    target: {
      type: 'pull-request',
      id: `${ctx.repo.project}/${ctx.repo.slug}#${id}`,
      host: ctx.repo.host.url,
    },
    action: {
      type: 'http',
      description: parts.description,
      method: parts.method,
      path: parts.path,
      ...(parts.body !== undefined && { body: parts.body }),
    },
    predictedAction: parts.blockingReasons?.length ? 'conflict' : parts.predictedAction,
    reasons: [`pull request #${id} is ${pr.state} at version ${pr.version}`, ...(parts.reasons ?? [])],
    blockingReasons: parts.blockingReasons ?? [],
  });
}

/** Parses --version: a whole number (0 included), as `bbdc pr get` shows it. */
export function versionFlag(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(String(value)))
    throw new UsageError(`--version "${value}" must be a whole number (the version \`bbdc pr get\` shows)`);
  return Number(value);
}
