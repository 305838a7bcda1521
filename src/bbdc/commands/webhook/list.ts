import type { WebhookListOutput } from '../../../../generated/types/cli/output/webhook-list.ts';
import { UsageError } from '../../../core/errors.ts';
import { collectPages } from '../../api/paging.ts';
import { scopeId } from '../../api/scope.ts';
import { type RestWebhook, toWebhook, webhooksPath } from '../../api/webhooks.ts';
import { limitFlag } from '../../cli/paging-flags.ts';
import { defineCommand } from '../../command.ts';
import { positiveInt } from '../repo/list.ts';
import { projectArg, splitProjectArg, type WebhookKind, webhookCommandName, webhookScope } from './scope.ts';

type Options = { project?: string; event?: string; limit: number; start: number };

/** Parses --start: a whole number, 0 or more. */
function startOption(value: unknown): number {
  if (value === undefined) return 0;
  const text = String(value);
  if (!/^\d+$/.test(text)) throw new UsageError(`--start "${text}" must be a whole number of 0 or more`);
  return Number(text);
}

/** `bbdc webhook list` / `bbdc project webhook list <project>`: webhooks, with --limit and --start paging. */
export function webhookListCommand(kind: WebhookKind) {
  return defineCommand<Options, WebhookListOutput>({
    name: webhookCommandName(kind, 'list'),
    summary: `List the webhooks of a ${kind}`,
    description: `--limit caps how many are returned and --start skips the first N; when more remain, the output gives the --start of the next page. Needs ${kind === 'project' ? 'PROJECT_ADMIN' : 'REPO_ADMIN'}.`,
    args: kind === 'project' ? [projectArg] : [],
    flags: {
      event: { type: 'string', value: 'EVENT', description: 'Only webhooks for this event, e.g. pr:opened' },
      limit: limitFlag('webhooks', 100),
      start: { type: 'string', value: 'N', description: 'Skip this many webhooks first (default 0)' },
    },
    outputSchema: 'webhook-list',
    effect: 'safe',
    examples:
      kind === 'project'
        ? ['bbdc project webhook list PROJ']
        : ['bbdc webhook list -R PROJ/api', 'bbdc webhook list --limit 10 --start 10 --json'],
    parse: ({ args, flags }) => ({
      project: splitProjectArg(kind, args).project,
      event: flags.event as string | undefined,
      limit: positiveInt(flags.limit, '--limit', 100),
      start: startOption(flags.start),
    }),
    async run(o, deps) {
      const { scope, host } = await webhookScope(deps, o.project);
      const client = await deps.client(host);
      const { values, truncated } = await collectPages<RestWebhook>(
        client,
        webhooksPath(scope),
        { event: o.event },
        o.limit,
        o.start,
      );
      const webhooks = values.map(toWebhook);
      const data: WebhookListOutput = {
        scope: { type: scope.type, id: scopeId(scope) },
        webhooks,
        count: webhooks.length,
        start: o.start,
        truncated,
      };
      if (truncated) data.nextStart = o.start + webhooks.length;
      return data;
    },
    human(d, ui) {
      ui.table(
        ['id', 'name', 'url', 'events', 'active'],
        d.webhooks.map((w) => [
          String(w.id ?? '?'),
          w.name,
          w.url,
          w.events.join(','),
          w.active ? 'yes' : 'no',
        ]),
      );
      if (d.nextStart !== undefined) ui.notice(`More webhooks: run again with --start ${d.nextStart}.`);
    },
  });
}

/** `bbdc webhook list`: the current repository's webhooks. */
export const command = webhookListCommand('repository');
