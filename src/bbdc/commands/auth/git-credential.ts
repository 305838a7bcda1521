import type { AuthGitCredentialOutput } from '../../../../generated/types/cli/output/auth-git-credential.ts';
import { UsageError } from '../../../core/errors.ts';
import { identify } from '../../api/identity.ts';
import {
  credentialScope,
  formatCredential,
  hostForRequest,
  parseCredentialRequest,
} from '../../clone/credential-protocol.ts';
import { defineCommand } from '../../command.ts';

type Options = { operation: 'get' | 'store' | 'erase' };

/**
 * `bbdc auth git-credential <get|store|erase>`: git's credential helper, registered by `bbdc auth setup-git`. `get`
 * answers with the stored token of a configured server (and nothing for any other host, so git asks its next
 * helper); `store` and `erase` are read and ignored: the token stays where `bbdc auth login` put it.
 */
export const command = defineCommand<Options, AuthGitCredentialOutput>({
  name: 'auth git-credential',
  summary: "Answer git's credential requests with the stored token (git calls this; see auth setup-git)",
  description:
    'Speaks the git credential helper protocol on stdin and stdout. With --json it reports whether it would answer, never the secret.',
  args: [{ name: 'operation', required: true, description: 'get, store or erase, as git passes it' }],
  flags: {},
  outputSchema: 'auth-git-credential',
  effect: 'safe',
  parse: ({ args }) => {
    if (!['get', 'store', 'erase'].includes(args[0]))
      throw new UsageError(`operation "${args[0]}" must be get, store or erase (git passes it)`);
    return { operation: args[0] as Options['operation'] };
  },
  async run(o, deps) {
    const request = parseCredentialRequest(await deps.readStdin());
    const host = o.operation === 'get' ? hostForRequest(deps.config().hosts ?? [], request) : undefined;
    if (!host) return { operation: o.operation, answered: false };
    const resolved = await deps.resolveHost(host.url);
    const credentials = resolved.credentials;
    if (!credentials) return { operation: o.operation, host: host.url, answered: false };
    const secret = credentials.token ?? credentials.password ?? '';
    // Bitbucket takes an HTTP access token as the password of its owner's username.
    const username =
      credentials.username ??
      host.username ??
      (await identify(await deps.clientFor(resolved.url, credentials), resolved.url)).username;
    if (!deps.globals.json) deps.stdout.write(formatCredential(username, secret));
    return { operation: o.operation, host: credentialScope(host.url), answered: true, username };
  },
  human() {
    // The answer was written in git's protocol by run(); nothing else may reach git's stdin.
  },
});
