import type { AuthLogoutOutput } from '../../../../generated/types/cli/output/auth-logout.ts';
import { defineCommand } from '../../command.ts';
import { findHost, normalizeHostUrl } from '../../config/hosts.ts';
import { makePlan } from '../../output/plan.ts';

type Options = { host?: string };

/** `bbdc auth logout [host]`: forgets a host's secret and entry; the default host when none is named. */
export const command = defineCommand<Options, AuthLogoutOutput>({
  name: 'auth logout',
  summary: 'Remove a server and its stored credentials',
  args: [
    { name: 'host', required: false, description: 'Server to log out of (default: the default server)' },
  ],
  flags: {},
  outputSchema: 'auth-logout',
  effect: 'mutating',
  parse: ({ args }) => ({ host: args[0] ? normalizeHostUrl(args[0], 'host') : undefined }),
  async plan(o, deps) {
    const match = findHost(deps.config(), o.host);
    const id = match?.host.url ?? o.host ?? '(default host)';
    return makePlan({
      intent: `bbdc auth logout ${o.host ?? ''}`.trim(),
      target: { type: 'host', id },
      action: { type: 'config', description: `remove ${id} and its secret from ${deps.configPath}` },
      predictedAction: match ? 'delete' : 'no-op',
      reasons: [match ? `${id} is configured (${match.matchedBy} match)` : `${id} is not configured`],
      blockingReasons: [],
    });
  },
  async run(o, deps) {
    const config = deps.config();
    const match = findHost(config, o.host);
    if (!match) return { host: o.host ?? '', removed: false };
    const url = match.host.url;
    await (await deps.secrets()).remove(url, match.host.secretStorage);
    const hosts = (config.hosts ?? []).filter((h) => h.url !== url);
    const next = { ...config, hosts };
    if (next.defaultHost === url) delete next.defaultHost;
    deps.saveConfig(next);
    return { host: url, removed: true };
  },
  human(d, ui) {
    ui.line(
      d.removed
        ? `Logged out of ${d.host}.`
        : `Not logged in to ${d.host || 'any default host'}; nothing to do.`,
    );
  },
});
