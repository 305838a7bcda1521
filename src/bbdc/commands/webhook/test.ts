import type { WebhookTestOutput } from '../../../../generated/types/cli/output/webhook-test.ts';
import { type RestWebhook, webhooksPath } from '../../api/webhooks.ts';
import { defineCommand } from '../../command.ts';
import { webhookId, webhookScope } from './scope.ts';

/** What POST .../webhooks/test answers: the request sent, the target's response and an outcome. */
type RestTestResult = {
  request?: { url?: string; method?: string };
  response?: { statusCode?: number; body?: string };
  result?: { outcome?: string; description?: string };
};

/** `bbdc webhook test <id>`: asks Bitbucket to post a test event to the webhook's URL and reports the answer. */
export const command = defineCommand<{ id: number }, WebhookTestOutput>({
  name: 'webhook test',
  summary: "Send a test request to a webhook's URL",
  description:
    'Bitbucket itself sends the request, so this checks that the server can reach the URL. Nothing on the server changes.',
  args: [{ name: 'id', required: true, description: 'Webhook id (see `bbdc webhook list`)' }],
  flags: {},
  outputSchema: 'webhook-test',
  effect: 'safe',
  examples: ['bbdc webhook test 3 -R PROJ/api'],
  parse: ({ args }) => ({ id: webhookId(args[0]) }),
  async run(o, deps) {
    const { scope, host } = await webhookScope(deps, undefined);
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
