// The permission each write needs, as the 9.4 document states it in the operation's description ("The
// authenticated user must have REPO_ADMIN permission ..."); the repository-settings plugins (default reviewers,
// required builds, reviewer groups) are repository administration. The server checks it before any handler runs,
// as Bitbucket does, so a route only declares it: `permission` on the route wins, else this table.
import type { Permission } from './route-types.ts';

export const documentedPermissions: Record<string, Permission> = {
  // Pull requests.
  merge: 'REPO_WRITE',
  tryAutoMerge: 'REPO_WRITE',
  cancelAutoMerge: 'REPO_WRITE',
  // Not assignParticipantRole / unassignParticipantRole: the document says REPO_WRITE, but a pull request's author
  // (who may hold only REPO_READ) manages its reviewers in the web UI; without evidence either way, left open.
  // Branches and tags.
  createBranchForRepository: 'REPO_WRITE',
  deleteBranch: 'REPO_WRITE',
  createTagForRepository: 'REPO_WRITE',
  deleteTag: 'REPO_WRITE',
  // Repository administration.
  updateRepository: 'REPO_ADMIN',
  deleteRepository: 'REPO_ADMIN',
  setDefaultBranch_2: 'REPO_ADMIN',
  createWebhook_1: 'REPO_ADMIN',
  updateWebhook_1: 'REPO_ADMIN',
  deleteWebhook_1: 'REPO_ADMIN',
  testWebhook_1: 'REPO_ADMIN',
  enableHook_1: 'REPO_ADMIN',
  disableHook_1: 'REPO_ADMIN',
  setSettings_1: 'REPO_ADMIN',
  set_1: 'REPO_ADMIN',
  delete_5: 'REPO_ADMIN',
  setAutoDeclineSettings_1: 'REPO_ADMIN',
  deleteAutoDeclineSettings_1: 'REPO_ADMIN',
  updatePullRequestSettings_1: 'REPO_ADMIN',
  setPermissionForUser: 'REPO_ADMIN',
  setPermissionForGroup: 'REPO_ADMIN',
  revokePermissionsForUser_2: 'REPO_ADMIN',
  revokePermissionsForGroup_2: 'REPO_ADMIN',
  create_2: 'REPO_ADMIN',
  delete_7: 'REPO_ADMIN',
  createPullRequestCondition_1: 'REPO_ADMIN',
  deletePullRequestCondition_1: 'REPO_ADMIN',
  createRequiredBuildsMergeCheck: 'REPO_ADMIN',
  deleteRequiredBuildsMergeCheck: 'REPO_ADMIN',
  // Project administration.
  updateProject: 'PROJECT_ADMIN',
  deleteProject: 'PROJECT_ADMIN',
  createWebhook: 'PROJECT_ADMIN',
  updateWebhook: 'PROJECT_ADMIN',
  deleteWebhook: 'PROJECT_ADMIN',
  testWebhook: 'PROJECT_ADMIN',
  enableHook: 'PROJECT_ADMIN',
  disableHook: 'PROJECT_ADMIN',
  setSettings: 'PROJECT_ADMIN',
  setPermissionForUsers_1: 'PROJECT_ADMIN',
  setPermissionForGroups_1: 'PROJECT_ADMIN',
  revokePermissionsForUser_1: 'PROJECT_ADMIN',
  revokePermissionsForGroup_1: 'PROJECT_ADMIN',
};
