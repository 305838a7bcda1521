import type { TagOutput } from '../../../../generated/types/cli/output/tag.ts';
import { segment } from '../../api/path.ts';
import { type RestRef, toTag } from '../../api/refs.ts';
import { repoPath } from '../../api/repositories.ts';
import { defineCommand } from '../../command.ts';
import type { Ui } from '../../output/ui.ts';

/** Prints a tag as `field: value` lines. */
export function printTag(t: TagOutput, ui: Ui): void {
  ui.line(ui.bold(t.name));
  ui.line(`ref:     ${t.id}`);
  ui.line(`commit:  ${t.latestCommit}`);
  ui.line(`type:    ${t.hash ? `annotated (tag object ${t.hash})` : 'lightweight'}`);
}

/** `bbdc tag view <name>`: one tag and the commit it points at. */
export const command = defineCommand<{ name: string }, TagOutput>({
  name: 'tag view',
  summary: 'Show a tag',
  args: [{ name: 'name', required: true, description: 'Tag name' }],
  flags: {},
  outputSchema: 'tag',
  effect: 'safe',
  examples: ['bbdc tag view v1.0 -R PROJ/api'],
  parse: ({ args }) => ({ name: args[0].replace(/^refs\/tags\//, '') }),
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    return toTag(
      await client.get<RestRef>(`${repoPath(repo.project, repo.slug)}/tags/${segment('tag', o.name)}`),
    );
  },
  human: printTag,
});
