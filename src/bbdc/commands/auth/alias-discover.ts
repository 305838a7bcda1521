import type { AuthAliasDiscoverOutput } from '../../../../generated/types/cli/output/auth-alias-discover.ts';
import { discoverAliases } from '../../api/clone-links.ts';
import type { CommandDeps } from '../../command.ts';
import { defineCommand } from '../../command.ts';
import { upsertHost } from '../../config/hosts.ts';
import { makePlan } from '../../output/plan.ts';
import { storedHost } from './stored-host.ts';

async function discover(deps: CommandDeps) {
  const host = await storedHost(deps);
  const discovered = await discoverAliases(await deps.client(await deps.resolveHost(host.url)));
  const added = discovered.filter((a) => !(host.aliases ?? []).includes(a));
  return { host, discovered, added };
}

/** `bbdc auth alias discover`: adds the hosts of the server's clone links (SSH host:port) as aliases. */
export const command = defineCommand<Record<string, never>, AuthAliasDiscoverOutput>({
  name: 'auth alias discover',
  summary: 'Find aliases in the clone links of a repository on the server',
  args: [],
  flags: {},
  outputSchema: 'auth-alias-discover',
  effect: 'mutating',
  parse: () => ({}),
  async plan(_o, deps) {
    const { host, discovered, added } = await discover(deps);
    return makePlan({
      intent: 'bbdc auth alias discover',
      target: { type: 'host', id: host.url },
      action: { type: 'config', description: `add aliases ${added.join(', ') || '(none)'} to ${host.url}` },
      predictedAction: added.length ? 'update' : 'no-op',
      reasons: [`clone links name ${discovered.join(', ') || 'no other host'}`],
      blockingReasons: [],
    });
  },
  async run(_o, deps) {
    const { host, discovered, added } = await discover(deps);
    if (added.length)
      deps.saveConfig(
        upsertHost(deps.config(), { ...host, aliases: [...(host.aliases ?? []), ...added].sort() }),
      );
    return { host: host.url, discovered, added };
  },
  human(d, ui) {
    ui.line(
      d.added.length ? `Added aliases to ${d.host}: ${d.added.join(', ')}` : `No new aliases for ${d.host}.`,
    );
  },
});
