import type { AccessTokenOutput } from '../../../../../generated/types/cli/output/access-token.ts';
import { segment } from '../../../api/path.ts';
import { defineCommand } from '../../../command.ts';
import {
  type RestToken,
  resolveTokenScope,
  scopeFlags,
  scopeOption,
  type TokenScopeOption,
  tokenIdArg,
  toToken,
} from './scope.ts';

type Options = TokenScopeOption & { id: string };

/** `bbdc auth token get <id>`: one token's name, permissions and dates (never its secret). */
export const command = defineCommand<Options, AccessTokenOutput>({
  name: 'auth token get',
  summary: 'Show one HTTP access token (never its secret)',
  args: [tokenIdArg],
  flags: scopeFlags,
  outputSchema: 'access-token',
  effect: 'safe',
  examples: ['bbdc auth token get 252973515069'],
  parse: ({ args, flags }) => ({ ...scopeOption(flags), id: String(args[0]) }),
  async run(o, deps) {
    const s = await resolveTokenScope(o, deps);
    return toToken(await s.client.get<RestToken>(`${s.base}/${segment('id', o.id)}`), s.label);
  },
  human(t, ui) {
    ui.line(`${ui.bold(t.name)} (${t.id}) on ${t.scope}`);
    ui.line(`Permissions: ${t.permissions.join(', ') || 'none'}`);
    ui.line(`Expires:     ${t.expiryDate ?? 'never'}`);
    if (t.lastAuthenticated) ui.line(`Last used:   ${t.lastAuthenticated}`);
  },
});
