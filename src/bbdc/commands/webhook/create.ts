import type { WebhookCreateOutput } from '../../../../generated/types/cli/output/webhook-create.ts';
import { identify } from '../../api/identity.ts';
import { collectPages } from '../../api/paging.ts';
import { scopeId, scopeLabel } from '../../api/scope.ts';
import { type RestWebhook, redactBody, toWebhook, webhooksPath } from '../../api/webhooks.ts';
import { defineCommand } from '../../command.ts';
import { makePlan } from '../../output/plan.ts';
import { createBody, parseWebhookFields, webhookFlags } from './fields.ts';
import { printWebhook } from './get.ts';
import {
  projectArg,
  splitProjectArg,
  type WebhookKind,
  webhookCommandName,
  webhookNeeds,
  webhookScope,
} from './scope.ts';

type Options = { project?: string; body: ReturnType<typeof createBody> };

/** `bbdc webhook create` / `bbdc project webhook create <project>`: a new webhook; --dry-run lists look-alikes. */
export function webhookCreateCommand(kind: WebhookKind) {
  return defineCommand<Options, WebhookCreateOutput>({
    name: webhookCommandName(kind, 'create'),
    summary: `Create a webhook on a ${kind}`,
    description:
      'Bitbucket posts the chosen events to the URL as JSON; with --secret each delivery is signed (X-Hub-Signature).',
    args: kind === 'project' ? [projectArg] : [],
    flags: webhookFlags,
    outputSchema: 'webhook-create',
    effect: 'mutating',
    needs: webhookNeeds(kind),
    examples: [
      `bbdc ${webhookCommandName(kind, 'create')}${kind === 'project' ? ' PROJ' : ''} --name ci --url https://ci.example.com/hook --events repo:refs_changed,pr:opened`,
    ],
    parse: ({ args, flags }) => ({
      project: splitProjectArg(kind, args).project,
      body: createBody(parseWebhookFields(flags)),
    }),
    async plan(o, deps) {
      const { scope, host } = await webhookScope(deps, o.project);
      const client = await deps.client(host);
      const { username } = await identify(client, host.url);
      const { values } = await collectPages<RestWebhook>(client, webhooksPath(scope), {}, undefined);
      const alike = values.filter((w) => w.name === o.body.name || w.url === o.body.url);
      return makePlan({
        intent: `bbdc ${webhookCommandName(kind, 'create')} --name ${o.body.name}`,
        target: { type: 'webhook', id: `${scopeId(scope)}:${o.body.name}`, host: host.url },
        action: {
          type: 'http',
          description: `create webhook "${o.body.name}" on ${scopeLabel(scope)}`,
          method: 'POST',
          path: webhooksPath(scope),
          body: redactBody(o.body),
        },
        predictedAction: 'create',
        reasons: [
          `authenticated as ${username}`,
          `${scopeLabel(scope)} has ${values.length} webhook${values.length === 1 ? '' : 's'}`,
          ...alike.map((w) => `webhook ${w.id} "${w.name}" already posts to ${w.url}; this adds another`),
        ],
        blockingReasons: [],
      });
    },
    async run(o, deps) {
      const { scope, host } = await webhookScope(deps, o.project);
      const client = await deps.client(host);
      const res = await client.request<RestWebhook>('POST', webhooksPath(scope), { body: o.body });
      return toWebhook(res.data ?? {});
    },
    human(d, ui) {
      ui.line(`Created webhook ${d.id ?? '(the server did not say its id)'} "${d.name}".`);
      printWebhook(d, ui);
    },
  });
}

/** `bbdc webhook create`: a webhook on the current repository. */
export const command = webhookCreateCommand('repository');
