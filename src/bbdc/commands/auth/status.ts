import type { AuthStatusOutput } from '../../../../generated/types/cli/output/auth-status.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import { identify } from '../../api/identity.ts';
import { type CommandDeps, defineCommand } from '../../command.ts';
import { hostSummaries, printHosts } from '../../config/host-summary.ts';

type HostSummary = AuthStatusOutput['hosts'][number];

/** Asks the server whether it accepts the stored credentials of one host (as gh auth status does). */
async function check(host: HostSummary, deps: CommandDeps): Promise<HostSummary> {
  const resolved = await deps.resolveHost(host.url);
  if (!resolved.credentials) return { ...host, check: 'no-secret', checkMessage: 'no secret is stored' };
  try {
    await identify(await deps.clientFor(resolved.url, resolved.credentials), resolved.url);
    return { ...host, check: 'ok' };
  } catch (error) {
    if (!(error instanceof RealmforgeError)) throw error;
    const refused = error.kind === 'auth';
    return { ...host, check: refused ? 'refused' : 'unreachable', checkMessage: error.message };
  }
}

/** `bbdc auth status`: every stored host with its user, auth mode, where its secret is kept and whether it works. */
export const command = defineCommand<Record<string, never>, AuthStatusOutput>({
  name: 'auth status',
  summary: 'Show stored servers, users and auth modes, and check each token with its server',
  description:
    'Exits 3 when no server is configured or a server refuses its stored credentials (as `gh auth status` does), so scripts can test for a working login.',
  args: [],
  flags: {},
  outputSchema: 'auth-status',
  effect: 'safe',
  parse: () => ({}),
  async run(_o, deps) {
    const hosts = await Promise.all(hostSummaries(deps.config()).map((h) => check(h, deps)));
    return { configFile: deps.configPath, hosts };
  },
  human(d, ui) {
    printHosts(d.hosts, ui);
    for (const h of d.hosts.filter((x) => x.check === 'refused' || x.check === 'unreachable'))
      ui.notice(`${h.url}: ${h.check}: ${h.checkMessage}`);
    if (d.hosts.some((h) => h.plaintext)) {
      ui.notice(
        'warning: some secrets are stored in plaintext (no OS keyring was available when logging in)',
      );
    }
  },
  exitCode: (d) => (d.hosts.length === 0 || d.hosts.some((h) => h.check === 'refused') ? 3 : 0),
});
