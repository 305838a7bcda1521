import { scopedNeeds } from '../../api/permission-check.ts';
import { repositoryBody } from '../../api/repositories.ts';
import { readRepo, toggleCommand } from './admin/toggles.ts';

/** `bbdc repo unarchive`. */
export const command = toggleCommand({
  name: 'repo unarchive',
  summary: 'Unarchive a repository: writable again',
  description: 'Needs REPO_ADMIN.',
  setting: 'archived',
  needs: scopedNeeds('REPO_ADMIN', 'archiving a repository'),
  value: false,
  read: async (deps, base) => {
    const repo = await readRepo(deps, base);
    return {
      current: repo.archived === true,
      request: { method: 'PUT', path: base, body: repositoryBody(repo, { archived: false }) },
    };
  },
});
