import type { AuthTokenUrlOutput } from '../../../../generated/types/cli/output/auth-token-url.ts';
import { identify, tokenPageUrl } from '../../api/identity.ts';
import { defineCommand } from '../../command.ts';

/** `bbdc auth token-url`: the personal access token page, per user when the credentials identify one. */
export const command = defineCommand<Record<string, never>, AuthTokenUrlOutput>({
  name: 'auth token-url',
  summary: 'Print the URL of the personal access token page',
  args: [],
  flags: {},
  outputSchema: 'auth-token-url',
  effect: 'safe',
  parse: () => ({}),
  async run(_o, deps) {
    const host = await deps.host();
    if (!host.credentials) return { host: host.url, url: tokenPageUrl(host.url), personal: false };
    const { username, user } = await identify(await deps.client(host), host.url);
    const slug = user?.slug ?? username;
    return { host: host.url, url: tokenPageUrl(host.url, slug), personal: true, slug };
  },
  human(d, ui) {
    ui.line(d.url);
  },
});
