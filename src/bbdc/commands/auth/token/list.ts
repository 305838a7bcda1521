import type { AccessTokenListOutput } from '../../../../../generated/types/cli/output/access-token-list.ts';
import { collectPages } from '../../../api/paging.ts';
import { defineCommand } from '../../../command.ts';
import {
  type RestToken,
  resolveTokenScope,
  scopeFlags,
  scopeOption,
  type TokenScopeOption,
  toToken,
} from './scope.ts';

/** `bbdc auth token list`: your HTTP access tokens, or a project's or repository's. Secrets are never shown. */
export const command = defineCommand<TokenScopeOption, AccessTokenListOutput>({
  name: 'auth token list',
  summary: 'List HTTP access tokens (yours, or with --project / --repository)',
  args: [],
  flags: scopeFlags,
  outputSchema: 'access-token-list',
  effect: 'safe',
  examples: ['bbdc auth token list', 'bbdc auth token list --project PROJ'],
  parse: ({ flags }) => scopeOption(flags),
  async run(o, deps) {
    const s = await resolveTokenScope(o, deps);
    const { values } = await collectPages<RestToken>(s.client, s.base, {}, undefined);
    return { scope: s.label, tokens: values.map((t) => toToken(t, s.label)) };
  },
  human(d, ui) {
    if (!d.tokens.length) {
      ui.notice(`No access tokens on ${d.scope}.`);
      return;
    }
    ui.table(
      ['id', 'name', 'permissions', 'expires', 'last used'],
      d.tokens.map((t) => [
        t.id,
        t.name,
        t.permissions.join(','),
        t.expiryDate?.slice(0, 10) ?? 'never',
        t.lastAuthenticated?.slice(0, 10) ?? '-',
      ]),
    );
  },
});
