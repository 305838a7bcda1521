import type { PrDefaultReviewersOutput } from '../../../../generated/types/cli/output/pr-default-reviewers.ts';
import type { Id } from '../../api/ids.ts';
import { segment } from '../../api/path.ts';
import { branchName, fetchPullRequest, parsePrId, type RestUser } from '../../api/pull-requests.ts';
import { type RestRepository, repoPath } from '../../api/repositories.ts';
import { defineCommand } from '../../command.ts';
import { prContext, prIdArg } from './pr-context.ts';

/** `bbdc pr default-reviewers <id>`: who the repository's default-reviewer conditions ask to review this PR. */
export const command = defineCommand<{ id: Id }, PrDefaultReviewersOutput>({
  name: 'pr default-reviewers',
  summary: "List the default reviewers the repository's conditions name for a pull request's branches",
  description: 'Compare with `bbdc pr get` to see who is missing; add them with `bbdc pr reviewer add`.',
  args: [prIdArg],
  flags: {},
  outputSchema: 'pr-default-reviewers',
  effect: 'safe',
  examples: ['bbdc pr default-reviewers 42'],
  parse: ({ args }) => ({ id: parsePrId(args[0]) }),
  async run(o, deps) {
    const { repo, client } = await prContext(deps);
    const pr = await fetchPullRequest(client, repo, o.id);
    const idOf = async (r: { project: { key: string }; slug: string } | undefined) =>
      (await client.get<RestRepository>(repoPath(r?.project.key ?? repo.project, r?.slug ?? repo.slug))).id;
    const targetRepoId = await idOf(pr.toRef.repository);
    const same = !pr.fromRef.repository || pr.fromRef.repository.slug === pr.toRef.repository?.slug;
    const sourceRepoId = same ? targetRepoId : await idOf(pr.fromRef.repository);
    const users = await client.get<RestUser[]>(
      `/rest/default-reviewers/latest/projects/${segment('project', repo.project)}/repos/${segment('repository', repo.slug)}/reviewers`,
      { sourceRepoId, targetRepoId, sourceRefId: pr.fromRef.id, targetRefId: pr.toRef.id },
    );
    const current = new Set((pr.reviewers ?? []).map((r) => r.user?.name));
    return {
      pullRequest: o.id,
      repository: `${repo.project}/${repo.slug}`,
      // Ref ids and the list are not required by the 9.4 document: a missing one is named, never crashed on.
      from: pr.fromRef.id ? branchName(pr.fromRef.id) : '(unknown branch)',
      to: pr.toRef.id ? branchName(pr.toRef.id) : '(unknown branch)',
      reviewers: (Array.isArray(users) ? users : []).map((u) => ({
        name: u.name ?? '(unknown user)',
        ...(u.displayName && { displayName: u.displayName }),
        added: current.has(u.name),
      })),
    };
  },
  human(d, ui) {
    if (!d.reviewers.length) ui.notice(`No default reviewers for ${d.from} → ${d.to}.`);
    ui.table(
      ['user', 'on the pull request'],
      d.reviewers.map((r) => [r.name, r.added ? 'yes' : 'no']),
    );
  },
});
