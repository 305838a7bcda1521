import type { AccessTokenOutput } from '../../../../../generated/types/cli/output/access-token.ts';
import { UsageError } from '../../../../core/errors.ts';
import { segment } from '../../../api/path.ts';
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
  tokenIdArg,
  toToken,
} from './scope.ts';

type Options = TokenScopeOption & {
  id: string;
  body: { name?: string; permissions?: string[]; expiryDays?: number };
};

async function prepare(o: Options, deps: CommandDeps) {
  const s = await resolveTokenScope(o, deps);
  const path = `${s.base}/${segment('id', o.id)}`;
  const current = await s.client.get<RestToken>(path);
  const same =
    (o.body.name === undefined || o.body.name === current.name) &&
    (o.body.permissions === undefined ||
      [...o.body.permissions].sort().join() === [...(current.permissions ?? [])].sort().join()) &&
    o.body.expiryDays === undefined;
  return {
    scope: s.label,
    current,
    change: {
      client: s.client,
      intent: `bbdc auth token update ${o.id}`,
      host: s.host,
      target: { type: 'access-token', id: `${s.label}/${o.id}` },
      request: { method: 'POST', path, body: o.body },
      description: `update access token "${current.name}" on ${s.label}`,
      predicted: same ? ('no-op' as const) : ('update' as const),
      reasons: [`it has ${(current.permissions ?? []).join(', ') || 'no permissions'}`],
    },
  };
}

/** `bbdc auth token update <id>`: renames a token or changes its permissions or expiry. */
export const command = defineCommand<Options, AccessTokenOutput>({
  name: 'auth token update',
  summary: 'Rename an HTTP access token or change its permissions or expiry',
  args: [tokenIdArg],
  flags: {
    ...scopeFlags,
    name: { type: 'string', value: 'NAME', description: 'New name' },
    permissions: {
      type: 'string',
      isMultiple: true,
      value: 'PERMS',
      description: 'New permissions (replace the old ones)',
    },
    expiryDays: { type: 'string', value: 'DAYS', description: 'Days until it expires, from now' },
  },
  outputSchema: 'access-token',
  effect: 'mutating',
  examples: ['bbdc auth token update 252973515069 --permissions REPO_READ'],
  parse: ({ args, flags }) => {
    const body = {
      ...(flags.name !== undefined && { name: String(flags.name) }),
      ...(parsePermissions(flags.permissions) && { permissions: parsePermissions(flags.permissions) }),
      ...(flags.expiryDays !== undefined && {
        expiryDays: positiveInt(flags.expiryDays, '--expiry-days', 1),
      }),
    };
    if (!Object.keys(body).length)
      throw new UsageError('nothing to change: pass --name, --permissions or --expiry-days');
    return { ...scopeOption(flags), id: String(args[0]), body };
  },
  plan: async (o, deps) => planOf((await prepare(o, deps)).change),
  async run(o, deps) {
    const p = await prepare(o, deps);
    const res = await apply<RestToken>(p.change);
    return toToken(res?.data ?? p.current, p.scope);
  },
  human(t, ui) {
    ui.line(
      `Access token ${t.name} (${t.id}) has ${t.permissions.join(', ')}${t.expiryDate ? `, expires ${t.expiryDate.slice(0, 10)}` : ''}`,
    );
  },
});
