import type { RepositoryOutput } from '../../../../generated/types/cli/output/repository.ts';
import { identify } from '../../api/identity.ts';
import { getIfExists } from '../../api/optional.ts';
import { type RestRepository, repoPath, toRepository } from '../../api/repositories.ts';
import { repoFromArg } from '../../cli/repo-arg.ts';
import { defineCommand } from '../../command.ts';
import { normalizeProjectKey } from '../../config/remote-url.ts';
import { httpPlan } from '../../output/http-plan.ts';
import { slugOf } from './create.ts';
import { printRepository, repoArg } from './get.ts';

type Options = { repo?: string; project?: string; name?: string };

/** `bbdc repo fork [repository]`: forks into a project, or into your personal namespace by default. */
export const command = defineCommand<Options, RepositoryOutput>({
  name: 'repo fork',
  summary: 'Fork a repository into a project or your personal namespace',
  description: 'Clone the fork with `bbdc repo clone`: the original is added as the remote "upstream".',
  args: [repoArg],
  flags: {
    project: {
      type: 'string',
      shortFlag: 'p',
      value: 'KEY',
      description: 'Project to fork into (default: ~you)',
    },
    name: { type: 'string', value: 'NAME', description: 'Name of the fork (default: the same name)' },
  },
  outputSchema: 'repository',
  effect: 'mutating',
  examples: ['bbdc repo fork PROJ/api', 'bbdc repo fork PROJ/api --project TEAM --name api-experiments'],
  parse: ({ args, flags }) => ({
    repo: args[0],
    project: flags.project ? normalizeProjectKey(String(flags.project)) : undefined,
    name: flags.name as string | undefined,
  }),
  async plan(o, deps) {
    const repo = await repoFromArg(o.repo, deps);
    const client = await deps.client(repo.host);
    const { username } = await identify(client, repo.host.url);
    const path = repoPath(repo.project, repo.slug);
    const source = await getIfExists<RestRepository>(client, path);
    const project = o.project ?? `~${username.toLowerCase()}`;
    const slug = slugOf(o.name ?? source?.name ?? repo.slug);
    const taken = source ? await getIfExists<RestRepository>(client, repoPath(project, slug)) : undefined;
    const blocking = !source
      ? [`repository ${repo.project}/${repo.slug} does not exist`]
      : taken
        ? [`repository ${project}/${slug} already exists`]
        : [];
    return httpPlan({
      intent: `bbdc repo fork ${repo.project}/${repo.slug}`,
      host: repo.host.url,
      target: { type: 'repository', id: `${project}/${slug}` },
      request: { method: 'POST', path, body: body(o) },
      description: `fork ${repo.project}/${repo.slug} into ${project}/${slug}`,
      predicted: 'create',
      reasons: [`authenticated as ${username}`],
      blocking,
    });
  },
  async run(o, deps) {
    const repo = await repoFromArg(o.repo, deps);
    const client = await deps.client(repo.host);
    const res = await client.request<RestRepository>('POST', repoPath(repo.project, repo.slug), {
      body: body(o),
    });
    return toRepository(res.data);
  },
  human(d, ui) {
    ui.line(`Forked ${d.forkOf} to ${d.project}/${d.slug}.`);
    printRepository(d, ui);
  },
});

function body(o: Options) {
  return { ...(o.name && { name: o.name }), ...(o.project && { project: { key: o.project } }) };
}
