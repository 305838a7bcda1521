import type { AuthWhoamiOutput } from '../../../../generated/types/cli/output/auth-whoami.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import { identify, loginSteps, tokenPageUrl } from '../../api/identity.ts';
import { defineCommand } from '../../command.ts';

/** `bbdc auth whoami`: the identity the server sees, or how to create a personal access token. */
export const command = defineCommand<Record<string, never>, AuthWhoamiOutput>({
  name: 'auth whoami',
  summary: 'Show who the server says you are',
  description:
    'Reads the X-AUSERNAME header of an authenticated answer, then the user record. Without credentials, explains how to create a personal access token.',
  args: [],
  flags: {},
  outputSchema: 'auth-whoami',
  effect: 'safe',
  parse: () => ({}),
  async run(_o, deps) {
    const host = await deps.host();
    if (!host.credentials) {
      throw new RealmforgeError('auth', `no credentials for ${host.url}`, {
        details: loginSteps(host.url),
      });
    }
    const { username, user } = await identify(await deps.client(host), host.url);
    const slug = user?.slug ?? username;
    const data: AuthWhoamiOutput = { host: host.url, username, slug, tokenUrl: tokenPageUrl(host.url, slug) };
    if (user?.displayName) data.displayName = user.displayName;
    if (user?.emailAddress) data.email = user.emailAddress;
    return data;
  },
  human(d, ui) {
    ui.line(`${d.username}${d.displayName ? ` (${d.displayName})` : ''} on ${d.host}`);
    if (d.email) ui.line(`email: ${d.email}`);
  },
});
