import type { CommandDefinition } from './command.ts';

/** One registry row: the command's words and a loader, so only the command that runs is imported. */
export type RegistryEntry = { name: string; load: () => Promise<CommandDefinition<never, never>> };

const entry = (name: string, load: () => Promise<{ command: unknown }>): RegistryEntry => ({
  name,
  load: async () => (await load()).command as CommandDefinition<never, never>,
});

/** Every bbdc command; adding a command is a file under commands/ and one line here. */
export const registry: RegistryEntry[] = [
  entry('auth login', () => import('./commands/auth/login.ts')),
  entry('auth logout', () => import('./commands/auth/logout.ts')),
  entry('auth status', () => import('./commands/auth/status.ts')),
  entry('auth whoami', () => import('./commands/auth/whoami.ts')),
  entry('auth token-url', () => import('./commands/auth/token-url.ts')),
  entry('auth server list', () => import('./commands/auth/server-list.ts')),
  entry('auth server use', () => import('./commands/auth/server-use.ts')),
  entry('auth alias list', () => import('./commands/auth/alias-list.ts')),
  entry('auth alias add', () => import('./commands/auth/alias-add.ts')),
  entry('auth alias remove', () => import('./commands/auth/alias-remove.ts')),
  entry('auth alias discover', () => import('./commands/auth/alias-discover.ts')),
  entry('repo list', () => import('./commands/repo/list.ts')),
  entry('repo create', () => import('./commands/repo/create.ts')),
  entry('browse', () => import('./commands/browse.ts')),
  entry('hook list', () => import('./commands/hook/list.ts')),
  entry('hook enable', () => import('./commands/hook/enable.ts')),
  entry('hook disable', () => import('./commands/hook/disable.ts')),
  entry('hook configure', () => import('./commands/hook/configure.ts')),
  entry('webhook list', () => import('./commands/webhook/list.ts')),
  entry('webhook get', () => import('./commands/webhook/get.ts')),
  entry('webhook create', () => import('./commands/webhook/create.ts')),
  entry('webhook update', () => import('./commands/webhook/update.ts')),
  entry('webhook delete', () => import('./commands/webhook/delete.ts')),
  entry('webhook test', () => import('./commands/webhook/test.ts')),
  entry('project webhook list', () => import('./commands/project/webhook-list.ts')),
  entry('project webhook create', () => import('./commands/project/webhook-create.ts')),
  entry('project webhook delete', () => import('./commands/project/webhook-delete.ts')),
  // #10 automation: agent skill and shell completions.
  entry('bulk plan', () => import('./commands/bulk/plan.ts')),
  entry('bulk apply', () => import('./commands/bulk/apply.ts')),
  entry('bulk status', () => import('./commands/bulk/status.ts')),
  entry('ai mcp serve', () => import('./commands/ai/mcp-serve.ts')),
  entry('ai mcp tools', () => import('./commands/ai/mcp-tools.ts')),
  entry('ai skill show', () => import('./commands/ai/skill-show.ts')),
  entry('ai skill install', () => import('./commands/ai/skill-install.ts')),
  entry('ai skill remove', () => import('./commands/ai/skill-remove.ts')),
  entry('completion bash', () => import('./commands/completion/bash.ts')),
  entry('completion zsh', () => import('./commands/completion/zsh.ts')),
  entry('completion fish', () => import('./commands/completion/fish.ts')),
  entry('update', () => import('./commands/update.ts')),
  // #9 pull requests.
  entry('pr list', () => import('./commands/pr/list.ts')),
  entry('pr get', () => import('./commands/pr/get.ts')),
  entry('pr mergeability', () => import('./commands/pr/mergeability.ts')),
  entry('pr create', () => import('./commands/pr/create.ts')),
  entry('pr update', () => import('./commands/pr/update.ts')),
  entry('pr merge', () => import('./commands/pr/merge.ts')),
  entry('pr decline', () => import('./commands/pr/decline.ts')),
  entry('pr reopen', () => import('./commands/pr/reopen.ts')),
  entry('pr delete', () => import('./commands/pr/delete.ts')),
  entry('pr reviewer add', () => import('./commands/pr/reviewer-add.ts')),
  entry('pr reviewer remove', () => import('./commands/pr/reviewer-remove.ts')),
  entry('pr review approve', () => import('./commands/pr/review-approve.ts')),
  entry('pr review unapprove', () => import('./commands/pr/review-unapprove.ts')),
  entry('pr review needs-work', () => import('./commands/pr/review-needs-work.ts')),
  entry('build status get', () => import('./commands/build/status-get.ts')),
  entry('build status set', () => import('./commands/build/status-set.ts')),
  entry('build required list', () => import('./commands/build/required-list.ts')),
  entry('build required create', () => import('./commands/build/required-create.ts')),
  entry('build required delete', () => import('./commands/build/required-delete.ts')),
  entry('repo settings pull-requests get', () => import('./commands/repo/settings/pull-requests-get.ts')),
  entry(
    'repo settings pull-requests update',
    () => import('./commands/repo/settings/pull-requests-update.ts'),
  ),
  entry('repo settings auto-merge get', () => import('./commands/repo/settings/auto-merge-get.ts')),
  entry('repo settings auto-merge set', () => import('./commands/repo/settings/auto-merge-set.ts')),
  entry('repo settings auto-merge delete', () => import('./commands/repo/settings/auto-merge-delete.ts')),
  entry('repo settings auto-decline get', () => import('./commands/repo/settings/auto-decline-get.ts')),
  entry('repo settings auto-decline set', () => import('./commands/repo/settings/auto-decline-set.ts')),
  entry('repo settings auto-decline delete', () => import('./commands/repo/settings/auto-decline-delete.ts')),
  entry(
    'repo settings reviewer-groups list',
    () => import('./commands/repo/settings/reviewer-groups-list.ts'),
  ),
  entry(
    'repo settings reviewer-groups create',
    () => import('./commands/repo/settings/reviewer-groups-create.ts'),
  ),
  entry(
    'repo settings reviewer-groups delete',
    () => import('./commands/repo/settings/reviewer-groups-delete.ts'),
  ),
  entry(
    'repo settings default-reviewers list',
    () => import('./commands/repo/settings/default-reviewers-list.ts'),
  ),
  entry(
    'repo settings default-reviewers create',
    () => import('./commands/repo/settings/default-reviewers-create.ts'),
  ),
  entry(
    'repo settings default-reviewers delete',
    () => import('./commands/repo/settings/default-reviewers-delete.ts'),
  ),
];

/** Group summaries shown by `bbdc --help` and `bbdc <group> --help`. */
export const groups: Record<string, string> = {
  auth: 'Log in, manage servers, aliases and credentials',
  'auth server': 'List the configured servers and choose the default',
  'auth alias': 'Manage the other names (SSH host:port) of a server',
  repo: 'Work with repositories',
  browse: 'Open a repository, pull request, file or commit in the browser',
  hook: 'List, enable, disable and configure repository and project hooks',
  webhook: 'Manage the webhooks of a repository',
  'project webhook': 'Manage the webhooks of a project',
  bulk: 'Apply one policy to many repositories: plan, review, apply, resume',
  ai: 'Serve bbdc to coding agents: an MCP tool server and an agent skill',
  'ai mcp': 'Serve bbdc commands as MCP tools to coding agents',
  'ai skill': 'Print, install or remove the agent skill (SKILL.md)',
  completion: 'Print a shell completion script for bash, zsh or fish',
  update: 'Update bbdc to the latest signed release',
  pr: 'Work with pull requests: review, merge, comments, tasks, builds',
  'pr reviewer': 'Add or remove reviewers of a pull request',
  'pr review': 'Approve a pull request, withdraw it, or ask for work',
  build: 'Report and read commit build statuses; require green builds before merging',
  'build status': 'Read and report the build statuses of a commit',
  'build required': 'Manage the required-builds merge checks of a repository',
  'repo settings': 'Pull request settings, auto-merge, auto-decline, reviewer groups and default reviewers',
  'repo settings pull-requests': 'Merge strategies and merge checks of a repository',
  'repo settings auto-merge': 'Whether pull requests may merge by themselves once checks pass',
  'repo settings auto-decline': 'Whether inactive pull requests are declined',
  'repo settings reviewer-groups': 'Groups of users added as reviewers together',
  'repo settings default-reviewers': 'Reviewers added to new pull requests by branch',
};

/** Loads every command definition, in registry order. */
export async function loadAll(): Promise<CommandDefinition<never, never>[]> {
  return Promise.all(registry.map((e) => e.load()));
}
