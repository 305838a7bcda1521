import type { AuthServerListOutput } from '../../../../generated/types/cli/output/auth-server-list.ts';
import { defineCommand } from '../../command.ts';
import { hostSummaries, printHosts } from '../../config/host-summary.ts';

/** `bbdc auth server list`: configured servers, `*` marking the default. */
export const command = defineCommand<Record<string, never>, AuthServerListOutput>({
  name: 'auth server list',
  summary: 'List configured servers',
  args: [],
  flags: {},
  outputSchema: 'auth-server-list',
  effect: 'safe',
  parse: () => ({}),
  async run(_o, deps) {
    return { hosts: hostSummaries(deps.config()) };
  },
  human(d, ui) {
    printHosts(d.hosts, ui);
  },
});
