import type { RepoSettingsReviewerGroupsCreateOutput } from '../../../../../generated/types/cli/output/repo-settings-reviewer-groups-create.ts';
import { UsageError } from '../../../../core/errors.ts';
import type { RestUser } from '../../../api/identity.ts';
import { identify } from '../../../api/identity.ts';
import { collectPages } from '../../../api/paging.ts';
import { scopedNeeds } from '../../../api/permission-check.ts';
import {
  type RestReviewerGroup,
  resolveUsers,
  reviewerGroupsPath,
  toReviewerGroup,
  userList,
} from '../../../api/reviewers.ts';
import { defineCommand } from '../../../command.ts';
import { makePlan } from '../../../output/plan.ts';
import { printGroups } from './reviewer-groups-list.ts';

type Options = { name: string; users: string[]; description?: string };

/** The POST body, for the dry-run and the run alike: the full user objects the server resolved. */
const groupBody = (o: { name: string; description?: string }, users: RestUser[]) => ({
  name: o.name,
  ...(o.description && { description: o.description }),
  users,
});

/** `bbdc repo settings reviewer-groups create <name> --users a,b`. */
export const command = defineCommand<Options, RepoSettingsReviewerGroupsCreateOutput>({
  name: 'repo settings reviewer-groups create',
  summary: 'Create a reviewer group in a repository',
  description: 'Every user must exist; the names are checked before anything is created. Needs REPO_ADMIN.',
  args: [{ name: 'name', required: true, description: 'Group name, unique in the repository' }],
  flags: {
    users: {
      type: 'string',
      isMultiple: true,
      value: 'USERS',
      description: 'Members, comma-separated or repeated (required)',
    },
    description: { type: 'string', value: 'TEXT', description: 'What the group is for' },
  },
  outputSchema: 'repo-settings-reviewer-groups-create',
  effect: 'mutating',
  needs: scopedNeeds('REPO_ADMIN', 'changing reviewer groups'),
  examples: ['bbdc repo settings reviewer-groups create backend --users alice,bob -R PROJ/api'],
  parse: ({ args, flags }) => {
    if (!args[0].trim()) throw new UsageError('the group name must not be empty');
    return {
      name: args[0].trim(),
      users: userList(flags.users, '--users'),
      description: flags.description as string | undefined,
    };
  },
  async plan(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const { username } = await identify(client, repo.host.url);
    const users = await resolveUsers(client, o.users);
    const path = reviewerGroupsPath(repo.project, repo.slug);
    const { values } = await collectPages<RestReviewerGroup>(client, path, {}, undefined);
    const taken = values.find((g) => g.name === o.name);
    return makePlan({
      intent: `bbdc repo settings reviewer-groups create ${o.name}`,
      target: { type: 'reviewer-group', id: `${repo.project}/${repo.slug}:${o.name}`, host: repo.host.url },
      action: {
        type: 'http',
        description: `create reviewer group ${o.name} (${o.users.join(', ')}) in ${repo.project}/${repo.slug}`,
        method: 'POST',
        path,
        body: groupBody(o, users),
      },
      predictedAction: taken ? 'conflict' : 'create',
      reasons: [`authenticated as ${username}`, `users exist: ${o.users.join(', ')}`],
      blockingReasons: taken ? [`a reviewer group named ${o.name} already exists (id ${taken.id})`] : [],
    });
  },
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const users = await resolveUsers(client, o.users);
    const res = await client.request<RestReviewerGroup>('POST', reviewerGroupsPath(repo.project, repo.slug), {
      body: groupBody(o, users),
    });
    return { repository: `${repo.project}/${repo.slug}`, group: toReviewerGroup(res.data) };
  },
  human(d, ui) {
    ui.line(`Created reviewer group ${d.group.name} in ${d.repository}.`);
    printGroups([d.group], ui);
  },
});
