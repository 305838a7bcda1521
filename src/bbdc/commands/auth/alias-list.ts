import type { AuthAliasListOutput } from '../../../../generated/types/cli/output/auth-alias-list.ts';
import { defineCommand } from '../../command.ts';

/** `bbdc auth alias list`: every alias of every configured server. */
export const command = defineCommand<Record<string, never>, AuthAliasListOutput>({
  name: 'auth alias list',
  summary: 'List the aliases of configured servers',
  args: [],
  flags: {},
  outputSchema: 'auth-alias-list',
  effect: 'safe',
  parse: () => ({}),
  async run(_o, deps) {
    const aliases = (deps.config().hosts ?? []).flatMap((h) =>
      (h.aliases ?? []).map((alias) => ({ host: h.url, alias })),
    );
    return { aliases };
  },
  human(d, ui) {
    if (!d.aliases.length) ui.notice('No aliases. Add one with `bbdc auth alias add <host:port>`.');
    else
      ui.table(
        ['alias', 'host'],
        d.aliases.map((a) => [a.alias, a.host]),
      );
  },
});
