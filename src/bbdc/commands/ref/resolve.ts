import type { RefResolveOutput } from '../../../../generated/types/cli/output/ref-resolve.ts';
import type { RestCommit } from '../../api/commits.ts';
import { segment } from '../../api/path.ts';
import { repoPath } from '../../api/repositories.ts';
import { defineCommand } from '../../command.ts';

/** `bbdc ref resolve <ref>`: the full commit id a branch, tag or abbreviated commit points at. */
export const command = defineCommand<{ ref: string }, RefResolveOutput>({
  name: 'ref resolve',
  summary: 'Resolve a branch, tag or abbreviated commit to its full commit id',
  args: [{ name: 'ref', required: true, description: 'Branch, tag, refs/... name or abbreviated commit' }],
  flags: {},
  outputSchema: 'ref-resolve',
  effect: 'safe',
  examples: ['bbdc ref resolve main', 'bbdc build status get $(bbdc ref resolve main)'],
  parse: ({ args }) => ({ ref: String(args[0]) }),
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const c = await client.get<RestCommit>(
      `${repoPath(repo.project, repo.slug)}/commits/${segment('ref', o.ref)}`,
    );
    return { repository: `${repo.project}/${repo.slug}`, ref: o.ref, commit: c.id };
  },
  human(d, ui) {
    ui.line(d.commit);
  },
});
