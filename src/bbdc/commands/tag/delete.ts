import type { DeletionOutput } from '../../../../generated/types/cli/output/deletion.ts';
import { identify } from '../../api/identity.ts';
import { pluginRepoPath, segment } from '../../api/path.ts';
import { findTag } from '../../api/refs.ts';
import { defineCommand } from '../../command.ts';
import { httpPlan } from '../../output/http-plan.ts';

const tagPath = (project: string, slug: string, name: string) =>
  `${pluginRepoPath('git', project, slug)}/tags/${segment('tag', name)}`;

/** `bbdc tag delete <name>`: deletes a tag. */
export const command = defineCommand<{ name: string }, DeletionOutput>({
  name: 'tag delete',
  summary: 'Delete a tag',
  args: [{ name: 'name', required: true, description: 'Tag to delete' }],
  flags: {},
  outputSchema: 'deletion',
  effect: 'mutating',
  needs: { permission: 'REPO_WRITE', action: 'deleting a tag' },
  examples: ['bbdc tag delete v0.9-rc1 -R PROJ/api'],
  parse: ({ args }) => {
    const name = args[0].replace(/^refs\/tags\//, '');
    segment('tag', name);
    return { name };
  },
  async plan(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const { username } = await identify(client, repo.host.url);
    const tag = await findTag(client, repo, o.name);
    return httpPlan({
      intent: `bbdc tag delete ${o.name}`,
      host: repo.host.url,
      target: { type: 'tag', id: `${repo.project}/${repo.slug}:${o.name}` },
      request: { method: 'DELETE', path: tagPath(repo.project, repo.slug, o.name) },
      description: `delete tag ${o.name}`,
      predicted: 'delete',
      reasons: [`authenticated as ${username}`, ...(tag ? [`${o.name} points at ${tag.latestCommit}`] : [])],
      blocking: tag ? [] : [`tag ${o.name} does not exist in ${repo.project}/${repo.slug}`],
    });
  },
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    await client.request('DELETE', tagPath(repo.project, repo.slug, o.name));
    return { type: 'tag', id: `${repo.project}/${repo.slug}:${o.name}`, deleted: true };
  },
  human(d, ui) {
    ui.line(`Deleted tag ${d.id.split(':').slice(1).join(':')}.`);
  },
});
