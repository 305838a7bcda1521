import type { AuthLoginOutput } from '../../../../generated/types/cli/output/auth-login.ts';
import { RealmforgeError, UsageError } from '../../../core/errors.ts';
import { type Credentials, checkHeaderValue } from '../../api/client.ts';
import { discoverAliases } from '../../api/clone-links.ts';
import { type Identity, identify } from '../../api/identity.ts';
import type { CommandDeps } from '../../command.ts';
import { defineCommand } from '../../command.ts';
import { normalizeHostUrl, upsertHost } from '../../config/hosts.ts';
import { makePlan } from '../../output/plan.ts';

type Options = {
  host: string;
  token?: string;
  withToken: boolean;
  username?: string;
  password?: string;
  discoverAliases: boolean;
};

async function credentials(o: Options, deps: CommandDeps): Promise<Credentials> {
  if (o.withToken) {
    // Only the first line: `echo "$TOKEN" |` ends it with a newline, and a token holds no whitespace.
    const token = (await deps.readStdin()).split(/\r?\n/)[0].trim();
    if (!token)
      throw new UsageError('--with-token read no token from standard input; pipe one in: echo "$TOKEN" |');
    checkHeaderValue('the token read from standard input', token);
    return { token, username: o.username };
  }
  if (o.token) {
    checkHeaderValue('--token', o.token);
    return { token: o.token, username: o.username };
  }
  if (o.username && o.password !== undefined) return { username: o.username, password: o.password };
  if (!deps.stdinIsTTY()) {
    throw new UsageError(
      'no credentials: pipe the token in with --with-token, or pass --token <personal access token> (or --username with --password); there is no terminal to prompt on',
    );
  }
  if (o.username)
    return {
      username: o.username,
      password: await deps.prompt(`Password for ${o.username}: `, { secret: true }),
    };
  const token = await deps.prompt(`Personal access token for ${o.host}: `, { secret: true });
  if (!token)
    throw new UsageError(
      'no token entered; create one at the token page (bbdc auth token-url) and try again',
    );
  return { token };
}

async function verify(
  o: Options,
  deps: CommandDeps,
): Promise<{ creds: Credentials; identity: Identity; aliases: string[] }> {
  const creds = await credentials(o, deps);
  deps.logger.redact(creds.token);
  deps.logger.redact(creds.password);
  const client = await deps.clientFor(o.host, creds);
  const identity = await identify(client, o.host);
  if (o.username && identity.username.toLowerCase() !== o.username.toLowerCase()) {
    throw new RealmforgeError(
      'auth',
      `the credentials belong to ${identity.username}, not --username ${o.username}`,
    );
  }
  let aliases: string[] = [];
  if (o.discoverAliases) {
    aliases = await discoverAliases(client).catch((error: Error) => {
      deps.logger.log('warn', `could not discover aliases from clone links: ${error.message}`);
      return [];
    });
  }
  return { creds, identity, aliases };
}

/** `bbdc auth login <host>`: checks the credentials against the server, then stores them. */
export const command = defineCommand<Options, AuthLoginOutput>({
  name: 'auth login',
  summary: 'Log in to a Bitbucket server and store the credentials',
  description:
    'Checks the token (or username and password) against the server before storing it in the OS keyring, or in a 0600 file when there is none.',
  args: [{ name: 'host', required: true, description: 'Server URL or bare host name (https:// is assumed)' }],
  flags: {
    token: {
      type: 'string',
      value: 'TOKEN',
      description:
        'Personal access token (prompted for on a terminal; --with-token keeps it out of ps and history)',
      secret: 'pipe it in with --with-token instead (echo "$TOKEN" | bbdc auth login HOST --with-token)',
    },
    withToken: {
      type: 'boolean',
      description: 'Read the personal access token from standard input, as gh does',
    },
    username: { type: 'string', value: 'NAME', description: 'Username, for basic auth or alongside a token' },
    password: {
      type: 'string',
      value: 'PASSWORD',
      description: 'Password for basic auth (prompted for on a terminal)',
      secret:
        'leave --password out to be prompted for it, or log in with a personal access token piped to --with-token',
    },
    discoverAliases: {
      type: 'boolean',
      default: true,
      description: 'Do not record the clone hosts (SSH host:port) as aliases',
    },
  },
  outputSchema: 'auth-login',
  effect: 'mutating',
  examples: [
    'echo "$TOKEN" | bbdc auth login bitbucket.example.com --with-token',
    'bbdc auth login bitbucket.example.com --username alice   # prompts for the password',
  ],
  parse: ({ args, flags }) => {
    if (flags.withToken && (flags.token !== undefined || flags.password !== undefined))
      throw new UsageError(
        '--with-token reads the token from standard input: give it without --token or --password',
      );
    return {
      host: normalizeHostUrl(args[0], 'host'),
      token: (flags.token as string | undefined) ?? undefined,
      withToken: flags.withToken === true,
      username: flags.username as string | undefined,
      password: flags.password as string | undefined,
      discoverAliases: flags.discoverAliases !== false,
    };
  },
  async plan(o, deps) {
    const { identity, aliases } = await verify(o, deps);
    const existing = (deps.config().hosts ?? []).find((h) => h.url === o.host);
    return makePlan({
      intent: `bbdc auth login ${o.host}`,
      target: { type: 'host', id: o.host },
      action: { type: 'config', description: `store credentials for ${identity.username} on ${o.host}` },
      predictedAction: existing ? 'update' : 'create',
      reasons: [
        `the server accepted the credentials for ${identity.username}`,
        existing
          ? `${deps.configPath} already has ${o.host}; its credentials would be replaced`
          : `${o.host} is not in ${deps.configPath} yet`,
        ...(aliases.length ? [`aliases from clone links: ${aliases.join(', ')}`] : []),
      ],
      blockingReasons: [],
    });
  },
  async run(o, deps) {
    const { creds, identity, aliases } = await verify(o, deps);
    const config = deps.config();
    const existing = (config.hosts ?? []).find((h) => h.url === o.host);
    const storage = await (await deps.secrets()).save(o.host, (creds.token ?? creds.password)!);
    const authMode = creds.token ? 'token' : 'basic';
    const allAliases = [...new Set([...(existing?.aliases ?? []), ...aliases])].sort();
    const next = upsertHost(config, {
      url: o.host,
      aliases: allAliases,
      username: identity.username,
      authMode,
      secretStorage: storage,
    });
    if (!next.defaultHost) next.defaultHost = o.host;
    deps.saveConfig(next);
    return {
      host: o.host,
      username: identity.username,
      displayName: identity.user?.displayName ?? identity.username,
      authMode,
      secretStorage: storage,
      plaintext: storage === 'file',
      aliases: allAliases,
      default: next.defaultHost === o.host,
    };
  },
  human(d, ui) {
    ui.line(`Logged in to ${d.host} as ${d.username} (${d.authMode}).`);
    if (d.plaintext) ui.line(`No OS keyring available: the secret is stored in plaintext in a 0600 file.`);
    if (d.aliases.length) ui.line(`Aliases: ${d.aliases.join(', ')}`);
  },
});
