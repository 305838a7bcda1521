import type { WebhookDeleteOutput } from '../../../../generated/types/cli/output/webhook-delete.ts';
import { identify } from '../../api/identity.ts';
import { getIfExists } from '../../api/optional.ts';
import { scopeId, scopeLabel } from '../../api/scope.ts';
import { type RestWebhook, webhooksPath } from '../../api/webhooks.ts';
import { defineCommand } from '../../command.ts';
import { makePlan } from '../../output/plan.ts';
import {
  projectArg,
  splitProjectArg,
  type WebhookKind,
  webhookCommandName,
  webhookId,
  webhookNeeds,
  webhookScope,
} from './scope.ts';

type Options = { project?: string; id: number };

/** `bbdc webhook delete <id>` / `bbdc project webhook delete <project> <id>`. */
export function webhookDeleteCommand(kind: WebhookKind) {
  return defineCommand<Options, WebhookDeleteOutput>({
    name: webhookCommandName(kind, 'delete'),
    summary: `Delete a webhook of a ${kind}`,
    args: [
      ...(kind === 'project' ? [projectArg] : []),
      { name: 'id', required: true, description: 'Webhook id (see the list command)' },
    ],
    flags: {},
    outputSchema: 'webhook-delete',
    effect: 'mutating',
    needs: webhookNeeds(kind),
    examples: [`bbdc ${webhookCommandName(kind, 'delete')}${kind === 'project' ? ' PROJ' : ''} 3 --dry-run`],
    parse: ({ args }) => {
      const { project, rest } = splitProjectArg(kind, args);
      return { project, id: webhookId(rest[0]) };
    },
    async plan(o, deps) {
      const { scope, host } = await webhookScope(deps, o.project);
      const client = await deps.client(host);
      const { username } = await identify(client, host.url);
      const current = await getIfExists<RestWebhook>(client, webhooksPath(scope, o.id));
      return makePlan({
        intent: `bbdc ${webhookCommandName(kind, 'delete')} ${o.id}`,
        target: { type: 'webhook', id: `${scopeId(scope)}:${o.id}`, host: host.url },
        action: {
          type: 'http',
          description: `delete webhook ${o.id} of ${scopeLabel(scope)}`,
          method: 'DELETE',
          path: webhooksPath(scope, o.id),
        },
        predictedAction: current ? 'delete' : 'conflict',
        reasons: [
          `authenticated as ${username}`,
          ...(current ? [`webhook ${o.id} is "${current.name}", posting to ${current.url}`] : []),
        ],
        blockingReasons: current ? [] : [`webhook ${o.id} does not exist in ${scopeLabel(scope)}`],
      });
    },
    async run(o, deps) {
      const { scope, host } = await webhookScope(deps, o.project);
      const client = await deps.client(host);
      await client.request('DELETE', webhooksPath(scope, o.id));
      return { scope: { type: scope.type, id: scopeId(scope) }, id: o.id, deleted: true };
    },
    human(d, ui) {
      ui.line(`Deleted webhook ${d.id} of ${d.scope.type} ${d.scope.id}.`);
    },
  });
}

/** `bbdc webhook delete <id>`: removes a webhook of the current repository. */
export const command = webhookDeleteCommand('repository');
