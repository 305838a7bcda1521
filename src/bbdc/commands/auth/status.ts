import type { AuthStatusOutput } from '../../../../generated/types/cli/output/auth-status.ts';
import { defineCommand } from '../../command.ts';
import { hostSummaries, printHosts } from '../../config/host-summary.ts';

/** `bbdc auth status`: every stored host with its user, auth mode and where its secret is kept. */
export const command = defineCommand<Record<string, never>, AuthStatusOutput>({
  name: 'auth status',
  summary: 'Show stored servers, users, auth modes and where secrets are kept',
  args: [],
  flags: {},
  outputSchema: 'auth-status',
  effect: 'safe',
  parse: () => ({}),
  async run(_o, deps) {
    return { configFile: deps.configPath, hosts: hostSummaries(deps.config()) };
  },
  human(d, ui) {
    printHosts(d.hosts, ui);
    if (d.hosts.some((h) => h.plaintext)) {
      ui.notice(
        'warning: some secrets are stored in plaintext (no OS keyring was available when logging in)',
      );
    }
  },
});
