import type { WebhookGetOutput } from '../../../../generated/types/cli/output/webhook-get.ts';
import { type RestWebhook, toWebhook, webhooksPath } from '../../api/webhooks.ts';
import { defineCommand } from '../../command.ts';
import type { Ui } from '../../output/ui.ts';
import { webhookId, webhookScope } from './scope.ts';

/** Prints one webhook as aligned `field: value` lines. */
export function printWebhook(w: WebhookGetOutput, ui: Ui): void {
  ui.table(
    ['field', 'value'],
    [
      ['id', String(w.id ?? 'not given by the server')],
      ['name', w.name],
      ['url', w.url],
      ['events', w.events.join(', ')],
      ['active', w.active ? 'yes' : 'no'],
      ...(w.sslVerificationRequired === undefined
        ? []
        : [['ssl verification', w.sslVerificationRequired ? 'yes' : 'no']]),
      ...(w.updatedDate ? [['updated', w.updatedDate]] : []),
    ],
  );
}

/** `bbdc webhook get <id>`: one webhook of the current repository. */
export const command = defineCommand<{ id: number }, WebhookGetOutput>({
  name: 'webhook get',
  summary: 'Show one webhook of a repository',
  args: [{ name: 'id', required: true, description: 'Webhook id (see `bbdc webhook list`)' }],
  flags: {},
  outputSchema: 'webhook-get',
  effect: 'safe',
  examples: ['bbdc webhook get 3 -R PROJ/api'],
  parse: ({ args }) => ({ id: webhookId(args[0]) }),
  async run(o, deps) {
    const { scope, host } = await webhookScope(deps, undefined);
    const client = await deps.client(host);
    return toWebhook(await client.get<RestWebhook>(webhooksPath(scope, o.id)), o.id);
  },
  human: printWebhook,
});
