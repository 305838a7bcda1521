import type { AccessTokenOutput } from '../../../../../generated/types/cli/output/access-token.ts';
import { UsageError } from '../../../../core/errors.ts';
import { positiveInt } from '../../../cli/paging-flags.ts';
import { type CommandDeps, defineCommand } from '../../../command.ts';
import { apply, planOf } from '../../../output/change.ts';
import {
  parsePermissions,
  type RestToken,
  resolveTokenScope,
  scopeFlags,
  scopeOption,
  type TokenScopeOption,
  toToken,
} from './scope.ts';

type Options = TokenScopeOption & { body: { name: string; permissions: string[]; expiryDays?: number } };

async function prepare(o: Options, deps: CommandDeps) {
  const s = await resolveTokenScope(o, deps);
  return {
    scope: s.label,
    change: {
      client: s.client,
      intent: `bbdc auth token create ${o.body.name}`,
      host: s.host,
      target: { type: 'access-token', id: `${s.label}/${o.body.name}` },
      request: { method: 'PUT', path: s.base, body: o.body },
      description: `create access token "${o.body.name}" with ${o.body.permissions.join(', ')} on ${s.label}`,
      predicted: 'create' as const,
      reasons: [
        o.body.expiryDays
          ? `it expires in ${o.body.expiryDays} days`
          : 'it does not expire unless the server enforces a maximum',
      ],
    },
  };
}

/** `bbdc auth token create <name> --permissions ...`: a new HTTP access token, its secret printed once. */
export const command = defineCommand<Options, AccessTokenOutput>({
  name: 'auth token create',
  summary: 'Create an HTTP access token; its secret is printed once',
  description:
    'The secret is shown once (on stdout, or as data.token with --json) and never logged: store it now. Bitbucket cannot show it again.',
  args: [{ name: 'name', required: true, description: 'Token name' }],
  flags: {
    ...scopeFlags,
    permissions: {
      type: 'string',
      isMultiple: true,
      value: 'PERMS',
      description: 'REPO_READ, REPO_WRITE, REPO_ADMIN, PROJECT_READ, ... (required)',
    },
    expiryDays: {
      type: 'string',
      value: 'DAYS',
      description: 'Days until it expires (default: the server default)',
    },
  },
  outputSchema: 'access-token',
  effect: 'mutating',
  examples: [
    'bbdc auth token create ci --permissions REPO_READ --expiry-days 90',
    'bbdc auth token create deploy --project PROJ --permissions PROJECT_READ,REPO_WRITE',
  ],
  parse: ({ args, flags }) => {
    const permissions = parsePermissions(flags.permissions);
    if (!permissions?.length) throw new UsageError('--permissions is required, e.g. --permissions REPO_READ');
    const body = {
      name: String(args[0]),
      permissions,
      ...(flags.expiryDays !== undefined && {
        expiryDays: positiveInt(flags.expiryDays, '--expiry-days', 1),
      }),
    };
    return { ...scopeOption(flags), body };
  },
  plan: async (o, deps) => planOf((await prepare(o, deps)).change),
  async run(o, deps) {
    const p = await prepare(o, deps);
    const res = await apply<RestToken>(p.change);
    const secret = res!.data.token;
    // The secret must never reach a log line: every logger output is scrubbed of it from here on.
    deps.logger.redact(secret);
    return { ...toToken(res!.data, p.scope), ...(secret && { token: secret }) };
  },
  human(t, ui) {
    ui.notice(
      `Created access token ${t.name} (${t.id}) on ${t.scope}. Store the secret now; it is not shown again:`,
    );
    ui.bytes(Buffer.from(`${t.token}\n`));
  },
});
