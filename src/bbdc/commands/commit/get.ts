import type { CommitOutput } from '../../../../generated/types/cli/output/commit.ts';
import { type RestCommit, toCommit } from '../../api/commits.ts';
import { segment } from '../../api/path.ts';
import { repoPath } from '../../api/repositories.ts';
import { defineCommand } from '../../command.ts';

/** `bbdc commit get <id>`: one commit with its full message and parents. */
export const command = defineCommand<{ id: string }, CommitOutput>({
  name: 'commit get',
  summary: 'Show a commit',
  args: [{ name: 'commit', required: true, description: 'Commit id (full or abbreviated)' }],
  flags: {},
  outputSchema: 'commit',
  effect: 'safe',
  examples: ['bbdc commit get 1a2b3c4d -R PROJ/api'],
  parse: ({ args }) => ({ id: args[0] }),
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const path = `${repoPath(repo.project, repo.slug)}/commits/${segment('commit', o.id)}`;
    return toCommit(await client.get<RestCommit>(path));
  },
  human(c, ui) {
    ui.line(`${ui.bold(`commit ${c.id}`)}`);
    if (c.parents.length > 1) ui.line(`Merge:  ${c.parents.map((p) => p.slice(0, 11)).join(' ')}`);
    ui.line(`Author: ${c.author.name}${c.author.email ? ` <${c.author.email}>` : ''}`);
    ui.line(`Date:   ${c.authoredAt}`);
    ui.line();
    for (const line of c.message.split('\n')) ui.line(`    ${line}`);
  },
});
