import { isDeepStrictEqual } from 'node:util';
import type { WebhookUpdateOutput } from '../../../../generated/types/cli/output/webhook-update.ts';
import { UsageError } from '../../../core/errors.ts';
import { identify } from '../../api/identity.ts';
import { scopeId, scopeLabel } from '../../api/scope.ts';
import { type RestWebhook, redactBody, toWebhook, webhooksPath } from '../../api/webhooks.ts';
import { defineCommand } from '../../command.ts';
import { makePlan } from '../../output/plan.ts';
import { parseWebhookFields, updateBody, type WebhookFields, webhookFlags } from './fields.ts';
import { printWebhook } from './get.ts';
import {
  projectArg,
  splitProjectArg,
  type WebhookKind,
  webhookCommandName,
  webhookId,
  webhookNeeds,
  webhookScope,
} from './scope.ts';

type Options = { project?: string; id: number; fields: WebhookFields };

/** `bbdc webhook update <id>` / `bbdc project webhook update <project> <id>`: changes only the given fields. */
export function webhookUpdateCommand(kind: WebhookKind) {
  const name = webhookCommandName(kind, 'update');
  return defineCommand<Options, WebhookUpdateOutput>({
    name,
    summary: `Change a webhook of a ${kind}`,
    description:
      'Only the fields given change; the others, the secret included, are kept as the server has them.',
    args: [
      ...(kind === 'project' ? [projectArg] : []),
      { name: 'id', required: true, description: 'Webhook id (see the list command)' },
    ],
    flags: webhookFlags,
    outputSchema: 'webhook-update',
    effect: 'mutating',
    needs: webhookNeeds(kind),
    examples: [
      `bbdc ${name}${kind === 'project' ? ' PROJ 3' : ' 3 -R PROJ/api'} --events repo:refs_changed --active false`,
    ],
    parse: ({ args, flags }) => {
      const fields = parseWebhookFields(flags);
      if (Object.keys(fields).length === 0)
        throw new UsageError(
          'nothing to change: pass at least one of --name, --url, --events, --secret, --active, --ssl-verification',
        );
      const { project, rest } = splitProjectArg(kind, args);
      return { project, id: webhookId(rest[0]), fields };
    },
    async plan(o, deps) {
      const { scope, host } = await webhookScope(deps, o.project);
      const client = await deps.client(host);
      const { username } = await identify(client, host.url);
      const current = await client.get<RestWebhook>(webhooksPath(scope, o.id));
      const next = updateBody(current, o.fields);
      const before = updateBody(current, {});
      const changed = Object.keys(next).filter(
        (k) => !isDeepStrictEqual(next[k as keyof typeof next], before[k as keyof typeof before]),
      );
      return makePlan({
        intent: `bbdc ${name} ${o.id}`,
        target: { type: 'webhook', id: `${scopeId(scope)}:${o.id}`, host: host.url },
        action: {
          type: 'http',
          description: `update webhook ${o.id} "${current.name}" of ${scopeLabel(scope)}`,
          method: 'PUT',
          path: webhooksPath(scope, o.id),
          body: redactBody(next),
        },
        predictedAction: changed.length ? 'update' : 'no-op',
        reasons: [
          `authenticated as ${username}`,
          changed.length ? `changes: ${changed.join(', ')}` : 'every given field already has that value',
        ],
        blockingReasons: [],
      });
    },
    async run(o, deps) {
      const { scope, host } = await webhookScope(deps, o.project);
      const client = await deps.client(host);
      const current = await client.get<RestWebhook>(webhooksPath(scope, o.id));
      const res = await client.request<RestWebhook>('PUT', webhooksPath(scope, o.id), {
        body: updateBody(current, o.fields),
      });
      return toWebhook(res.data ?? {}, o.id);
    },
    human(d, ui) {
      ui.line(`Updated webhook ${d.id} "${d.name}".`);
      printWebhook(d, ui);
    },
  });
}

/** `bbdc webhook update <id>`: changes a webhook of the current repository. */
export const command = webhookUpdateCommand('repository');
