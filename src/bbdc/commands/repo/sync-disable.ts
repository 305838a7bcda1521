import { scopedNeeds } from '../../api/permission-check.ts';
import { toggleCommand } from './admin/toggles.ts';

/** `bbdc repo sync disable`: fork syncing (the fork follows its origin's branches). */
export const command = toggleCommand({
  name: 'repo sync disable',
  summary: 'Stop syncing a fork with its origin',
  description: 'Needs REPO_ADMIN on the fork.',
  setting: 'fork-sync',
  needs: scopedNeeds('REPO_ADMIN', 'changing fork syncing'),
  value: false,
  read: async (deps, _base, syncBase) => ({
    current: (await (await deps.client()).get<{ enabled: boolean }>(syncBase)).enabled,
    request: { method: 'POST', path: syncBase, body: { enabled: false } },
  }),
});
