import type { AuthAliasAddOutput } from '../../../../generated/types/cli/output/auth-alias-add.ts';
import { defineCommand } from '../../command.ts';
import { normalizeAlias, upsertHost } from '../../config/hosts.ts';
import { makePlan } from '../../output/plan.ts';
import { AliasConflictError, aliasOwner } from './alias-owner.ts';
import { storedHost } from './stored-host.ts';

type Options = { alias: string };

/** `bbdc auth alias add <host[:port]>`: records another name of the server, e.g. its SSH clone host. */
export const command = defineCommand<Options, AuthAliasAddOutput>({
  name: 'auth alias add',
  summary: 'Add an alias (host or host:port) to a server',
  args: [
    {
      name: 'alias',
      required: true,
      description: 'Another name of the server, e.g. bitbucket-ssh.example.com:7999',
    },
  ],
  flags: {},
  outputSchema: 'auth-alias-add',
  effect: 'mutating',
  examples: ['bbdc auth alias add git.example.com:7999 --host bitbucket.example.com'],
  parse: ({ args }) => ({ alias: normalizeAlias(args[0]) }),
  async plan(o, deps) {
    const host = await storedHost(deps);
    const owner = aliasOwner(deps.config(), o.alias);
    const has = (host.aliases ?? []).includes(o.alias);
    const taken = owner && owner !== host.url;
    return makePlan({
      intent: `bbdc auth alias add ${o.alias}`,
      target: { type: 'alias', id: o.alias, host: host.url },
      action: { type: 'config', description: `add alias ${o.alias} to ${host.url}` },
      predictedAction: taken ? 'conflict' : has ? 'no-op' : 'update',
      reasons: [
        has
          ? `${host.url} already answers to ${o.alias}`
          : `${host.url} has aliases: ${(host.aliases ?? []).join(', ') || 'none'}`,
      ],
      blockingReasons: taken ? [`${o.alias} is already an alias of ${owner}`] : [],
    });
  },
  async run(o, deps) {
    const host = await storedHost(deps);
    const owner = aliasOwner(deps.config(), o.alias);
    if (owner && owner !== host.url)
      throw new AliasConflictError(`${o.alias} is already an alias of ${owner}; remove it there first`);
    if ((host.aliases ?? []).includes(o.alias)) return { host: host.url, alias: o.alias, added: false };
    deps.saveConfig(
      upsertHost(deps.config(), { ...host, aliases: [...(host.aliases ?? []), o.alias].sort() }),
    );
    return { host: host.url, alias: o.alias, added: true };
  },
  human(d, ui) {
    ui.line(d.added ? `Added alias ${d.alias} to ${d.host}.` : `${d.host} already has alias ${d.alias}.`);
  },
});
