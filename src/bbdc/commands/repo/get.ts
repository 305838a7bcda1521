import type { RepositoryOutput } from '../../../../generated/types/cli/output/repository.ts';
import { type RestRepository, repoPath, toRepository } from '../../api/repositories.ts';
import { repoFromArg } from '../../cli/repo-arg.ts';
import { defineCommand } from '../../command.ts';
import type { Ui } from '../../output/ui.ts';

/** The positional repository argument the repo commands share. */
export const repoArg = {
  name: 'repository',
  required: false,
  description:
    'PROJECT/slug, ~user/slug, HOST/PROJECT/slug or a clone/web URL (default: -R or the git remote)',
};

/** Prints a repository as `field: value` lines. */
export function printRepository(r: RepositoryOutput, ui: Ui): void {
  ui.line(`${ui.bold(`${r.project}/${r.slug}`)}  ${r.name}`);
  if (r.description) ui.line(`description:  ${r.description}`);
  ui.line(`visibility:   ${r.public ? 'public' : 'private'}${r.archived ? ' (archived)' : ''}`);
  if (r.forkOf) ui.line(`fork of:      ${r.forkOf}`);
  if (r.url) ui.line(`url:          ${r.url}`);
  if (r.cloneUrls?.http) ui.line(`clone http:   ${r.cloneUrls.http}`);
  if (r.cloneUrls?.ssh) ui.line(`clone ssh:    ${r.cloneUrls.ssh}`);
}

/** `bbdc repo get [repository]`: one repository with its clone URLs. */
export const command = defineCommand<{ repo?: string }, RepositoryOutput>({
  name: 'repo get',
  summary: 'Show a repository and its clone URLs',
  args: [repoArg],
  flags: {},
  outputSchema: 'repository',
  effect: 'safe',
  examples: ['bbdc repo get PROJ/api', 'bbdc repo get ~alice/dotfiles --json'],
  parse: ({ args }) => ({ repo: args[0] }),
  async run(o, deps) {
    const repo = await repoFromArg(o.repo, deps);
    const client = await deps.client(repo.host);
    return toRepository(await client.get<RestRepository>(repoPath(repo.project, repo.slug)));
  },
  human: printRepository,
});
