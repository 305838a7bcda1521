import type { TagOutput } from '../../../../generated/types/cli/output/tag.ts';
import { UsageError } from '../../../core/errors.ts';
import { identify } from '../../api/identity.ts';
import {
  defaultBranch,
  findTag,
  missingStartPoint,
  type RestRef,
  startPoint,
  toTag,
} from '../../api/refs.ts';
import { repoPath } from '../../api/repositories.ts';
import type { CommandDeps, RepoContext } from '../../command.ts';
import { defineCommand } from '../../command.ts';
import { httpPlan } from '../../output/http-plan.ts';
import { printTag } from './view.ts';

type Options = { name: string; from?: string; message?: string };

async function resolveFrom(o: Options, deps: CommandDeps, repo: RepoContext): Promise<string> {
  if (o.from) return o.from;
  const def = await defaultBranch(await deps.client(repo.host), repo);
  if (!def)
    throw new UsageError(`${repo.project}/${repo.slug} has no default branch yet; pass --from <commit>`);
  return def.displayId;
}

function body(o: Options, from: string) {
  return { name: o.name, startPoint: startPoint(from), ...(o.message && { message: o.message }) };
}

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
    const name = args[0].replace(/^refs\/tags\//, '');
    if (!name || /\s|\.\.|^-|[~^:?*[\\]|\/$|\.lock$/.test(name))
      throw new UsageError(`tag name "${args[0]}" is not a valid git tag name`);
    return { name, from: flags.from as string | undefined, message: flags.message as string | undefined };
  },
  async plan(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const { username } = await identify(client, repo.host.url);
    const from = await resolveFrom(o, deps, repo);
    const existing = await findTag(client, repo, o.name);
    const missing = await missingStartPoint(client, repo, from);
    return httpPlan({
      intent: `bbdc tag create ${o.name} --from ${from}`,
      host: repo.host.url,
      target: { type: 'tag', id: `${repo.project}/${repo.slug}:${o.name}` },
      request: { method: 'POST', path: `${repoPath(repo.project, repo.slug)}/tags`, body: body(o, from) },
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
    const from = await resolveFrom(o, deps, repo);
    const client = await deps.client(repo.host);
    const res = await client.request<RestRef>('POST', `${repoPath(repo.project, repo.slug)}/tags`, {
      body: body(o, from),
    });
    return toTag(res.data);
  },
  human(d, ui) {
    ui.line(`Created tag ${d.name}.`);
    printTag(d, ui);
  },
});
