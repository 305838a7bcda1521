import type { RepoSyncStatusOutput } from '../../../../generated/types/cli/output/repo-sync-status.ts';
import { repoPath } from '../../api/repositories.ts';
import { utcIso } from '../../api/timestamps.ts';
import { defineCommand } from '../../command.ts';

type RestSync = {
  available: boolean;
  enabled: boolean;
  lastSync?: number;
  aheadRefs?: { displayId?: string }[] | { displayId?: string };
  divergedRefs?: { displayId?: string }[] | { displayId?: string };
  orphanedRefs?: { displayId?: string }[] | { displayId?: string };
};

/** `bbdc repo sync status`: whether a fork follows its origin, and which branches are ahead or have diverged. */
export const command = defineCommand<Record<string, never>, RepoSyncStatusOutput>({
  name: 'repo sync status',
  summary: 'Show whether a fork is kept in sync with its origin, and its ahead or diverged branches',
  args: [],
  flags: {},
  outputSchema: 'repo-sync-status',
  effect: 'safe',
  examples: ['bbdc repo sync status -R ~alice/api'],
  parse: () => ({}),
  async run(_o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const s = await client.get<RestSync>(
      repoPath(repo.project, repo.slug).replace('/rest/api/latest/', '/rest/sync/latest/'),
    );
    // Servers send lists; the 9.4 document declares each as one ref object: both are read.
    const names = (l?: { displayId?: string }[] | { displayId?: string }) =>
      (Array.isArray(l) ? l : l ? [l] : []).flatMap((r) =>
        typeof r?.displayId === 'string' ? [r.displayId] : [],
      );
    return {
      repository: `${repo.project}/${repo.slug}`,
      available: s.available,
      enabled: s.enabled,
      ...(s.lastSync !== undefined && { lastSync: utcIso(s.lastSync) }),
      ahead: names(s.aheadRefs),
      diverged: names(s.divergedRefs),
      orphaned: names(s.orphanedRefs),
    };
  },
  human(d, ui) {
    if (!d.available) {
      ui.line(`${d.repository} is not a fork (or fork syncing is off on this server)`);
      return;
    }
    ui.line(
      `${d.repository}: fork syncing ${d.enabled ? 'on' : 'off'}${d.lastSync ? `, last synced ${d.lastSync}` : ''}`,
    );
    if (d.ahead.length) ui.line(`Ahead of origin: ${d.ahead.join(', ')}`);
    if (d.diverged.length) ui.line(`Diverged: ${d.diverged.join(', ')}`);
    if (d.orphaned.length) ui.line(`Gone from origin: ${d.orphaned.join(', ')}`);
  },
});
