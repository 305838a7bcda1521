import type { DiffOutput } from '../../../../generated/types/cli/output/diff.ts';
import { positiveInt } from '../../cli/paging-flags.ts';
import { defineCommand } from '../../command.ts';
import { diffFlags, printDiff, readDiff } from './print.ts';

type Options = { from: string; to: string; stat: boolean; path?: string; context?: number };

/** `bbdc diff refs <from> <to>`: what `to` changes relative to `from` (branches, tags or commits). */
export const command = defineCommand<Options, DiffOutput>({
  name: 'diff refs',
  summary: 'Show the diff between two branches, tags or commits',
  description:
    'The diff of <to> against <from>, as `git diff from to` shows it; one request, --stat included.',
  args: [
    { name: 'from', required: true, description: 'Base branch, tag or commit' },
    { name: 'to', required: true, description: 'Branch, tag or commit to compare' },
  ],
  flags: diffFlags,
  outputSchema: 'diff',
  effect: 'safe',
  examples: ['bbdc diff refs main feature/login', 'bbdc diff refs v1.0 v1.1 --stat'],
  parse: ({ args, flags }) => ({
    from: String(args[0]),
    to: String(args[1]),
    stat: flags.stat === true,
    path: flags.path as string | undefined,
    context: flags.context === undefined ? undefined : positiveInt(flags.context, '--context', 3),
  }),
  async run(o, deps) {
    const repo = await deps.repo();
    return readDiff(await deps.client(repo.host), repo, { since: o.from, until: o.to }, o);
  },
  human: printDiff,
});
