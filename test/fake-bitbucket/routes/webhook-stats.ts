// Webhook delivery statistics (counts and the last success, failure and error), per webhook. Tests record
// deliveries with recordDelivery(); reading needs the admin permission webhooks need (REPO_ADMIN / PROJECT_ADMIN).
import { opsState } from '../ops-state.ts';
import { bitbucketError, type RouteContext } from '../route-types.ts';
import type { FakeState } from '../state.ts';
import { type DeclaredRoute, projectRoute, repoRoute } from './declared.ts';

/** One delivery of a webhook. */
export type FakeDelivery = {
  outcome: 'SUCCESS' | 'FAILURE' | 'ERROR';
  event: string;
  start: number;
  duration: number;
  statusCode?: number;
};

const deliveries = new WeakMap<FakeState, Map<number, FakeDelivery[]>>();

/** Records a delivery of webhook `id` (tests use it to give the statistics something to count). */
export function recordDelivery(state: FakeState, id: number, d: FakeDelivery): void {
  const all = deliveries.get(state) ?? new Map<number, FakeDelivery[]>();
  deliveries.set(state, all);
  all.set(id, [...(all.get(id) ?? []), d]);
}

function summary(ctx: RouteContext, target: string) {
  const hook = opsState(ctx.state).webhooks.find(
    (w) => w.target === target && String(w.id) === ctx.params.webhookId,
  );
  if (!hook)
    return bitbucketError(
      404,
      `Webhook ${ctx.params.webhookId} does not exist.`,
      'com.atlassian.webhooks.NoSuchWebhookException',
    );
  const list = deliveries.get(ctx.state)?.get(hook.id) ?? [];
  const last = (o: FakeDelivery['outcome']) => {
    const d = list.filter((x) => x.outcome === o).at(-1);
    return (
      d && {
        event: d.event,
        start: d.start,
        finish: d.start + d.duration,
        duration: d.duration,
        result: { outcome: d.outcome, description: d.statusCode ? `HTTP ${d.statusCode}` : 'no answer' },
      }
    );
  };
  const count = (o: FakeDelivery['outcome']) => list.filter((x) => x.outcome === o).length;
  return {
    status: 200,
    body: {
      counts: { successes: count('SUCCESS'), failures: count('FAILURE'), errors: count('ERROR') },
      ...(last('SUCCESS') && { lastSuccess: last('SUCCESS') }),
      ...(last('FAILURE') && { lastFailure: last('FAILURE') }),
      ...(last('ERROR') && { lastError: last('ERROR') }),
    },
  };
}

/** Routes keyed by operationId, each with the permission Bitbucket requires. */
export const webhookStatsRoutes: Record<string, DeclaredRoute> = {
  getStatisticsSummary_1: repoRoute('REPO_ADMIN', (ctx, repo) =>
    summary(ctx, `${repo.projectKey}/${repo.slug}`),
  ),
  getStatisticsSummary: projectRoute('PROJECT_ADMIN', (ctx, project) => summary(ctx, project.key)),
};
