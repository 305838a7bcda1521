import type { RepositoryOutput } from '../../../../generated/types/cli/output/repository.ts';
import { identify } from '../../api/identity.ts';
import { getIfExists } from '../../api/optional.ts';
import { ifExists } from '../../api/permission-check.ts';
import { type RestRepository, repoPath, repositoryBody, toRepository } from '../../api/repositories.ts';
import { repoFromArg } from '../../cli/repo-arg.ts';
import { type Changes, differences, parseChanges, updateFlags } from '../../cli/update-flags.ts';
import { defineCommand } from '../../command.ts';
import { httpPlan } from '../../output/http-plan.ts';
import { printRepository, repoArg } from './get.ts';

type Options = { repo?: string; changes: Changes };

/** `bbdc repo update [repository]`: renames a repository or changes its description or visibility. */
export const command = defineCommand<Options, RepositoryOutput>({
  name: 'repo update',
  summary: "Change a repository's name, description or visibility",
  description:
    'Renaming a repository changes its slug, and so its URLs; existing clones need a new remote URL.',
  args: [repoArg],
  flags: updateFlags('New name (the slug follows it)'),
  outputSchema: 'repository',
  effect: 'mutating',
  needs: {
    permission: 'REPO_ADMIN',
    action: 'changing a repository',
    target: async (o, deps) => {
      const repo = await repoFromArg(o.repo, deps);
      return ifExists(await deps.client(repo.host), repoPath(repo.project, repo.slug), repo);
    },
  },
  examples: [
    'bbdc repo update PROJ/api --description "Public API"',
    'bbdc repo update --visibility public --dry-run',
  ],
  parse: ({ args, flags }) => {
    const changes = parseChanges(flags);
    return { repo: args[0], changes };
  },
  async plan(o, deps) {
    const repo = await repoFromArg(o.repo, deps);
    const client = await deps.client(repo.host);
    const { username } = await identify(client, repo.host.url);
    const path = repoPath(repo.project, repo.slug);
    const current = await getIfExists<RestRepository>(client, path);
    const diff = current ? differences(current, o.changes) : [];
    return httpPlan({
      intent: `bbdc repo update ${repo.project}/${repo.slug}`,
      host: repo.host.url,
      target: { type: 'repository', id: `${repo.project}/${repo.slug}` },
      request: { method: 'PUT', path, body: current ? repositoryBody(current, o.changes) : o.changes },
      description: `update repository ${repo.project}/${repo.slug}`,
      predicted: diff.length ? 'update' : 'no-op',
      reasons: [`authenticated as ${username}`, ...diff],
      blocking: current ? [] : [`repository ${repo.project}/${repo.slug} does not exist`],
    });
  },
  async run(o, deps) {
    const repo = await repoFromArg(o.repo, deps);
    const client = await deps.client(repo.host);
    const path = repoPath(repo.project, repo.slug);
    const current = await client.get<RestRepository>(path);
    const res = await client.request<RestRepository>('PUT', path, {
      body: repositoryBody(current, o.changes),
    });
    return toRepository(res.data);
  },
  human(d, ui) {
    ui.line(`Updated ${d.project}/${d.slug}.`);
    printRepository(d, ui);
  },
});
