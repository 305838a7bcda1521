import type { RepoSettingsReviewerGroupsCreateOutput } from '../../../../../generated/types/cli/output/repo-settings-reviewer-groups-create.ts';
import { UsageError } from '../../../../core/errors.ts';
import { scopedNeeds } from '../../../api/permission-check.ts';
import { type RestReviewerGroup, reviewerGroupsPath, toReviewerGroup } from '../../../api/reviewers.ts';
import { type CommandDeps, defineCommand } from '../../../command.ts';
import { apply, type Change, planOf } from '../../../output/change.ts';
import { groupId } from './reviewer-groups-users.ts';

type Options = { id: number; body: { name?: string; description?: string; users?: { name: string }[] } };

async function prepare(o: Options, deps: CommandDeps) {
  const repo = await deps.repo();
  const client = await deps.client(repo.host);
  const path = reviewerGroupsPath(repo.project, repo.slug, o.id);
  const current = await client.get<RestReviewerGroup>(path);
  const now = toReviewerGroup(current);
  const same =
    (o.body.name === undefined || o.body.name === now.name) &&
    (o.body.description === undefined || o.body.description === (now.description ?? '')) &&
    (o.body.users === undefined ||
      [...o.body.users.map((u) => u.name)].sort().join() === [...now.users].sort().join());
  const change: Change = {
    client,
    intent: `bbdc repo settings reviewer-groups update ${o.id}`,
    host: repo.host.url,
    target: { type: 'reviewer-group', id: `${repo.project}/${repo.slug}/${o.id}` },
    request: {
      method: 'PUT',
      path,
      body: {
        // The PUT replaces the group: every field is sent, the unchanged ones as the server has them.
        name: o.body.name ?? now.name,
        ...((o.body.description ?? now.description) !== undefined && {
          description: o.body.description ?? now.description,
        }),
        users: o.body.users ?? now.users.map((name) => ({ name })),
      },
    },
    description: `update reviewer group ${now.name}`,
    predicted: same ? 'no-op' : 'update',
    reasons: [
      `it has ${now.users.length} member${now.users.length === 1 ? '' : 's'}: ${now.users.join(', ') || 'none'}`,
    ],
  };
  return { current, change, repository: `${repo.project}/${repo.slug}` };
}

/** `bbdc repo settings reviewer-groups update <id>`: renames a reviewer group or replaces its members. */
export const command = defineCommand<Options, RepoSettingsReviewerGroupsCreateOutput>({
  name: 'repo settings reviewer-groups update',
  summary: 'Rename a reviewer group, change its description or replace its members',
  args: [{ name: 'id', required: true, description: 'Reviewer group id' }],
  flags: {
    name: { type: 'string', value: 'NAME', description: 'New name' },
    description: { type: 'string', value: 'TEXT', description: 'New description' },
    users: {
      type: 'string',
      isMultiple: true,
      value: 'USERS',
      description: 'The members (replace the old ones), comma-separated or repeated',
    },
  },
  outputSchema: 'repo-settings-reviewer-groups-create',
  effect: 'mutating',
  needs: scopedNeeds('REPO_ADMIN', 'changing reviewer groups'),
  examples: ['bbdc repo settings reviewer-groups update 3 --users alice,bob'],
  parse: ({ args, flags }) => {
    const users = ((flags.users as string[] | undefined) ?? [])
      .flatMap((u) => u.split(','))
      .map((u) => u.trim())
      .filter(Boolean);
    const body = {
      ...(flags.name !== undefined && { name: String(flags.name) }),
      ...(flags.description !== undefined && { description: String(flags.description) }),
      ...(users.length && { users: users.map((name) => ({ name })) }),
    };
    if (!Object.keys(body).length)
      throw new UsageError('nothing to change: pass --name, --description or --users');
    return { id: groupId(args[0]), body };
  },
  plan: async (o, deps) => planOf((await prepare(o, deps)).change),
  async run(o, deps) {
    const p = await prepare(o, deps);
    const res = await apply<RestReviewerGroup>(p.change);
    return { repository: p.repository, group: toReviewerGroup(res?.data ?? p.current) };
  },
  human(d, ui) {
    ui.line(`Reviewer group ${d.group.name} (${d.group.id}): ${d.group.users.join(', ') || 'no members'}`);
  },
});
