import type { BbdcConfig } from '../../../generated/types/cli/config.ts';
import type { AuthStatusOutput } from '../../../generated/types/cli/output/auth-status.ts';
import type { Ui } from '../output/ui.ts';

type HostSummary = AuthStatusOutput['hosts'][number];

/** One summary per stored host: user, auth mode, where its secret is and whether that is plaintext. */
export function hostSummaries(config: BbdcConfig): HostSummary[] {
  return (config.hosts ?? []).map((h) => {
    const summary: HostSummary = {
      url: h.url,
      default: h.url === config.defaultHost,
      aliases: h.aliases ?? [],
    };
    if (h.username) summary.username = h.username;
    if (h.authMode) summary.authMode = h.authMode;
    summary.secretStorage = h.secretStorage ?? 'none';
    summary.plaintext = h.secretStorage === 'file';
    return summary;
  });
}

/** Prints host summaries as a table; `*` marks the default host. */
export function printHosts(hosts: HostSummary[], ui: Ui): void {
  if (!hosts.length) {
    ui.notice('No servers configured. Run `bbdc auth login <host>`.');
    return;
  }
  // `auth status` checked each host with its server; `auth server list` did not.
  const checked = hosts.some((h) => h.check);
  ui.table(
    ['', 'host', 'user', 'auth', 'secret', ...(checked ? ['check'] : []), 'aliases'],
    hosts.map((h) => [
      h.default ? '*' : '',
      h.url,
      h.username ?? '',
      h.authMode ?? '',
      h.secretStorage === 'file' ? 'file (plaintext)' : (h.secretStorage ?? 'none'),
      ...(checked ? [h.check ?? ''] : []),
      h.aliases.join(','),
    ]),
  );
}
