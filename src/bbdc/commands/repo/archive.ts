import { scopedNeeds } from '../../api/permission-check.ts';
import { repositoryBody } from '../../api/repositories.ts';
import { readRepo, toggleCommand } from './admin/toggles.ts';

/** `bbdc repo archive`. */
export const command = toggleCommand({
  name: 'repo archive',
  summary: 'Archive a repository: read-only, hidden from lists by default',
  description: 'Needs REPO_ADMIN.',
  setting: 'archived',
  needs: scopedNeeds('REPO_ADMIN', 'archiving a repository'),
  value: true,
  read: async (deps, base) => {
    const repo = await readRepo(deps, base);
    return {
      current: repo.archived === true,
      request: { method: 'PUT', path: base, body: repositoryBody(repo, { archived: true }) },
    };
  },
});
