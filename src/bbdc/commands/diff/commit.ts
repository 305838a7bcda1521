import type { DiffOutput } from '../../../../generated/types/cli/output/diff.ts';
import { positiveInt } from '../../cli/paging-flags.ts';
import { defineCommand } from '../../command.ts';
import { diffFlags, printDiff, readDiff } from './print.ts';

type Options = { commit: string; stat: boolean; path?: string; context?: number };

/** `bbdc diff commit <commit>`: what one commit changed (against its first parent). */
export const command = defineCommand<Options, DiffOutput>({
  name: 'diff commit',
  summary: 'Show what a commit changed',
  args: [{ name: 'commit', required: true, description: 'Commit id or ref' }],
  flags: diffFlags,
  outputSchema: 'diff',
  effect: 'safe',
  examples: ['bbdc diff commit 1a2b3c4d', 'bbdc diff commit HEAD-ish --stat --json'],
  parse: ({ args, flags }) => ({
    commit: String(args[0]),
    stat: flags.stat === true,
    path: flags.path as string | undefined,
    context: flags.context === undefined ? undefined : positiveInt(flags.context, '--context', 3),
  }),
  async run(o, deps) {
    const repo = await deps.repo();
    return readDiff(await deps.client(repo.host), repo, { until: o.commit }, o);
  },
  human: printDiff,
});
