import type { WebhookTestOutput } from '../../../../generated/types/cli/output/webhook-test.ts';
import { type RestWebhook, webhooksPath } from '../../api/webhooks.ts';
import { defineCommand } from '../../command.ts';
import {
  projectArg,
  splitProjectArg,
  type WebhookKind,
  webhookCommandName,
  webhookId,
  webhookScope,
} from './scope.ts';

/** What POST .../webhooks/test answers: the request sent, the target's response and an outcome. */
type RestTestResult = {
  request?: { url?: string; method?: string };
  response?: { statusCode?: number; body?: string };
  result?: { outcome?: string; description?: string };
};

/** `bbdc webhook test <id>` / `bbdc project webhook test <project> <id>`: Bitbucket posts a test event. */
export function webhookTestCommand(kind: WebhookKind) {
  const name = webhookCommandName(kind, 'test');
  return defineCommand<{ project?: string; id: number }, WebhookTestOutput>({
    name,
    summary: `Send a test request to the URL of a ${kind}'s webhook`,
    description:
      'Bitbucket itself sends the request, so this checks that the server can reach the URL. Nothing on the server changes.',
    args: [
      ...(kind === 'project' ? [projectArg] : []),
      { name: 'id', required: true, description: 'Webhook id (see the list command)' },
    ],
    flags: {},
    outputSchema: 'webhook-test',
    effect: 'safe',
    examples: [`bbdc ${name}${kind === 'project' ? ' PROJ 3' : ' 3 -R PROJ/api'}`],
    parse: ({ args }) => {
      const { project, rest } = splitProjectArg(kind, args);
      return { project, id: webhookId(rest[0]) };
    },
    async run(o, deps) {
      const { scope, host } = await webhookScope(deps, o.project);
      const client = await deps.client(host);
      const hook = await client.get<RestWebhook>(webhooksPath(scope, o.id));
      const res = await client.request<RestTestResult | undefined>('POST', `${webhooksPath(scope)}/test`, {
        query: {
          webhookId: o.id,
          url: hook.url ?? '',
          sslVerificationRequired: String(hook.sslVerificationRequired ?? true),
        },
      });
      const status = res.data?.response?.statusCode;
      const outcome = res.data?.result?.outcome;
      const data: WebhookTestOutput = {
        id: o.id,
        url: hook.url ?? '',
        ok: outcome ? outcome === 'SUCCESS' : status !== undefined && status < 400,
      };
      if (status !== undefined) data.statusCode = status;
      if (outcome) data.outcome = outcome;
      if (res.data?.result?.description) data.description = res.data.result.description;
      return data;
    },
    human(d, ui) {
      const answer = d.statusCode === undefined ? 'no HTTP answer' : `HTTP ${d.statusCode}`;
      ui.line(
        `${d.ok ? 'OK' : 'FAILED'}: ${d.url} answered ${answer}${d.description ? ` (${d.description})` : ''}`,
      );
    },
  });
}

/** `bbdc webhook test <id>`: tests a webhook of the current repository. */
export const command = webhookTestCommand('repository');
