// The routes of bbdc's core commands (projects, repositories, refs, commits, permissions) as one table.
import { commitRoutes } from './commits.ts';
import { coreProjectRoutes } from './core-projects.ts';
import { permissionRoutes } from './permissions.ts';
import { refRoutes } from './refs.ts';

/** Project and repository administration, branches, tags, commits and permission grants. */
export const coreRoutes = { ...coreProjectRoutes, ...refRoutes, ...commitRoutes, ...permissionRoutes };
