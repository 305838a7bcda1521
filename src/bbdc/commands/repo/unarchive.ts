import { scopedNeeds } from '../../api/permission-check.ts';
import { readRepo, toggleCommand } from './admin/toggles.ts';

/** `bbdc repo unarchive`. */
export const command = toggleCommand({
  name: 'repo unarchive',
  summary: 'Unarchive a repository: writable again',
  description: 'Needs REPO_ADMIN.',
  setting: 'archived',
  needs: scopedNeeds('REPO_ADMIN', 'archiving a repository'),
  value: false,
  read: async (deps, base) => ({
    current: (await readRepo(deps, base)).archived === true,
    request: { method: 'PUT', path: base, body: { archived: false } },
  }),
});
