import type { AuthAliasRemoveOutput } from '../../../../generated/types/cli/output/auth-alias-remove.ts';
import { defineCommand } from '../../command.ts';
import { normalizeAlias, upsertHost } from '../../config/hosts.ts';
import { makePlan } from '../../output/plan.ts';
import { storedHost } from './stored-host.ts';

type Options = { alias: string };

/** `bbdc auth alias remove <host[:port]>`: forgets an alias of the server. */
export const command = defineCommand<Options, AuthAliasRemoveOutput>({
  name: 'auth alias remove',
  summary: 'Remove an alias from a server',
  args: [{ name: 'alias', required: true, description: 'The alias to remove' }],
  flags: {},
  outputSchema: 'auth-alias-remove',
  effect: 'mutating',
  parse: ({ args }) => ({ alias: normalizeAlias(args[0]) }),
  async plan(o, deps) {
    const host = await storedHost(deps);
    const has = (host.aliases ?? []).includes(o.alias);
    return makePlan({
      intent: `bbdc auth alias remove ${o.alias}`,
      target: { type: 'alias', id: o.alias, host: host.url },
      action: { type: 'config', description: `remove alias ${o.alias} from ${host.url}` },
      predictedAction: has ? 'delete' : 'no-op',
      reasons: [has ? `${host.url} has alias ${o.alias}` : `${host.url} has no alias ${o.alias}`],
      blockingReasons: [],
    });
  },
  async run(o, deps) {
    const host = await storedHost(deps);
    if (!(host.aliases ?? []).includes(o.alias)) return { host: host.url, alias: o.alias, removed: false };
    deps.saveConfig(
      upsertHost(deps.config(), { ...host, aliases: (host.aliases ?? []).filter((a) => a !== o.alias) }),
    );
    return { host: host.url, alias: o.alias, removed: true };
  },
  human(d, ui) {
    ui.line(
      d.removed
        ? `Removed alias ${d.alias} from ${d.host}.`
        : `${d.host} has no alias ${d.alias}; nothing to do.`,
    );
  },
});
