// `webhook stats` and `project webhook stats`: how deliveries of a webhook went, built once for both scopes.
import type { WebhookStatsOutput } from '../../../../generated/types/cli/output/webhook-stats.ts';
import { scopeId } from '../../api/scope.ts';
import { utcIso } from '../../api/timestamps.ts';
import { webhooksPath } from '../../api/webhooks.ts';
import { defineCommand } from '../../command.ts';
import {
  projectArg,
  splitProjectArg,
  type WebhookKind,
  webhookCommandName,
  webhookId,
  webhookScope,
} from './scope.ts';

type Invocation = {
  event?: string;
  start?: number;
  duration?: number;
  result?: { outcome?: string; description?: string };
};
type RestSummary = {
  counts?: { successes?: number; failures?: number; errors?: number };
  lastSuccess?: Invocation;
  lastFailure?: Invocation;
  lastError?: Invocation;
};

const last = (i: Invocation | undefined) =>
  i && {
    ...(i.event && { event: i.event }),
    ...(i.start !== undefined && { at: utcIso(i.start) }),
    ...(i.duration !== undefined && { durationMs: i.duration }),
    ...(i.result?.description && { result: i.result.description }),
  };

/** The stats command of a scope. */
export function webhookStatsCommand(kind: WebhookKind) {
  return defineCommand<{ project?: string; id: number }, WebhookStatsOutput>({
    name: webhookCommandName(kind, 'stats'),
    summary: `Show how deliveries of a ${kind} webhook went: successes, failures, errors and the last of each`,
    args: [
      ...(kind === 'project' ? [projectArg] : []),
      { name: 'id', required: true, description: 'Webhook id' },
    ],
    flags: {},
    outputSchema: 'webhook-stats',
    effect: 'safe',
    examples: [kind === 'project' ? 'bbdc project webhook stats PROJ 3' : 'bbdc webhook stats 3 -R PROJ/api'],
    parse: ({ args }) => {
      const { project, rest } = splitProjectArg(kind, args);
      return { project, id: webhookId(String(rest[0] ?? '')) };
    },
    async run(o, deps) {
      const { scope, host } = await webhookScope(deps, o.project);
      const client = await deps.client(host);
      const s = await client.get<RestSummary>(`${webhooksPath(scope, o.id)}/statistics/summary`);
      const lastSuccess = last(s.lastSuccess);
      const lastFailure = last(s.lastFailure);
      const lastError = last(s.lastError);
      return {
        scope: scopeId(scope),
        webhook: o.id,
        successes: s.counts?.successes ?? 0,
        failures: s.counts?.failures ?? 0,
        errors: s.counts?.errors ?? 0,
        ...(lastSuccess && { lastSuccess }),
        ...(lastFailure && { lastFailure }),
        ...(lastError && { lastError }),
      };
    },
    human(d, ui) {
      ui.line(
        `Webhook ${d.webhook} on ${d.scope}: ${d.successes} succeeded, ${d.failures} failed, ${d.errors} errors`,
      );
      for (const [label, l] of [
        ['last success', d.lastSuccess],
        ['last failure', d.lastFailure],
        ['last error', d.lastError],
      ] as const)
        if (l) ui.line(`  ${label}: ${l.at ?? '?'} ${l.event ?? ''}${l.result ? ` (${l.result})` : ''}`);
    },
  });
}

/** `bbdc webhook stats <id>`. */
export const command = webhookStatsCommand('repository');
