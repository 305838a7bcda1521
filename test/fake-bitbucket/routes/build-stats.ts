// Build status counts of commits (GET one, POST many), from the statuses bbdc reported and those seeded for PRs.
import { opsState } from '../ops-state.ts';
import { pullRequestsOf } from '../pull-request-state.ts';
import type { RouteContext } from '../route-types.ts';
import { type DeclaredRoute, userRoute } from './declared.ts';

const keys = {
  SUCCESSFUL: 'successful',
  FAILED: 'failed',
  INPROGRESS: 'inProgress',
  CANCELLED: 'cancelled',
  UNKNOWN: 'unknown',
} as const;

/** The counts of build states on a commit, as RestBuildStats. */
export function statsOf(ctx: RouteContext, commit: string) {
  const stats = { successful: 0, failed: 0, inProgress: 0, cancelled: 0, unknown: 0 };
  const states = [
    ...opsState(ctx.state)
      .buildStatuses.filter((s) => s.commit === commit)
      .map((s) => s.state),
    ...(pullRequestsOf(ctx.state).builds[commit] ?? []).map((b) => b.state),
  ];
  for (const s of states) stats[keys[s as keyof typeof keys] ?? 'unknown']++;
  return stats;
}

/** Routes keyed by operationId; build statuses are readable by any authenticated user, as on the server. */
export const buildStatsRoutes: Record<string, DeclaredRoute> = {
  getBuildStatusStats: userRoute((ctx) => ({ status: 200, body: statsOf(ctx, ctx.params.commitId) })),
  getMultipleBuildStatusStats: userRoute((ctx) => {
    const ids = Array.isArray(ctx.body) ? (ctx.body as string[]) : [];
    return { status: 200, body: Object.fromEntries(ids.map((id) => [id, statsOf(ctx, id)])) };
  }),
};
