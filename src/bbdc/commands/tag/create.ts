import type { TagOutput } from '../../../../generated/types/cli/output/tag.ts';
import { identify } from '../../api/identity.ts';
import {
  findTag,
  missingStartPoint,
  newRefBody,
  newRefName,
  type RestRef,
  startPointOrDefault,
  toTag,
} from '../../api/refs.ts';
import { repoPath } from '../../api/repositories.ts';
import { defineCommand } from '../../command.ts';
import { httpPlan } from '../../output/http-plan.ts';
import { printTag } from './view.ts';

type Options = { name: string; from?: string; message?: string };

/** `bbdc tag create <name> [--from REF] [--message TEXT]`: a lightweight tag, or an annotated one with a message. */
export const command = defineCommand<Options, TagOutput>({
  name: 'tag create',
  summary: 'Create a tag (annotated with --message)',
  description:
    'FROM is a branch name, a full ref or a commit id (sent as is). Without --from, the default branch.',
  args: [{ name: 'name', required: true, description: 'Tag name' }],
  flags: {
    from: { type: 'string', value: 'REF', description: 'Branch, ref or commit id to tag' },
    message: {
      type: 'string',
      shortFlag: 'm',
      value: 'TEXT',
      description: 'Make an annotated tag with this message',
    },
  },
  outputSchema: 'tag',
  effect: 'mutating',
  needs: { permission: 'REPO_WRITE', action: 'creating a tag' },
  examples: [
    'bbdc tag create v1.2.0 --from main -m "Release 1.2.0"',
    'bbdc tag create build-42 --from 1a2b3c4d',
  ],
  parse: ({ args, flags }) => {
    return {
      name: newRefName(args[0], 'tag'),
      from: flags.from as string | undefined,
      message: flags.message as string | undefined,
    };
  },
  async plan(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const { username } = await identify(client, repo.host.url);
    const from = await startPointOrDefault(client, repo, o.from);
    const existing = await findTag(client, repo, o.name);
    const missing = await missingStartPoint(client, repo, from);
    return httpPlan({
      intent: `bbdc tag create ${o.name} --from ${from}`,
      host: repo.host.url,
      target: { type: 'tag', id: `${repo.project}/${repo.slug}:${o.name}` },
      request: {
        method: 'POST',
        path: `${repoPath(repo.project, repo.slug)}/tags`,
        body: newRefBody(o, from),
      },
      description: `create ${o.message ? 'annotated' : 'lightweight'} tag ${o.name} at ${from}`,
      predicted: 'create',
      reasons: [`authenticated as ${username}`],
      blocking: [
        ...(existing ? [`tag ${o.name} already exists at ${existing.latestCommit?.slice(0, 11)}`] : []),
        ...(missing ? [missing] : []),
      ],
    });
  },
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const from = await startPointOrDefault(client, repo, o.from);
    const res = await client.request<RestRef>('POST', `${repoPath(repo.project, repo.slug)}/tags`, {
      body: newRefBody(o, from),
    });
    return toTag(res.data);
  },
  human(d, ui) {
    ui.line(`Created tag ${d.name}.`);
    printTag(d, ui);
  },
});
