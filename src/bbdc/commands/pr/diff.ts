import type { DiffFile, PrDiffOutput } from '../../../../generated/types/cli/output/pr-diff.ts';
import { mapConcurrently } from '../../../core/concurrently.ts';
import { UsageError } from '../../../core/errors.ts';
import type { Id } from '../../api/ids.ts';
import { filePath } from '../../api/path.ts';
import { firstDiff, type RestDiff, readChanges, unifiedDiff } from '../../api/pr-changes.ts';
import { fetchPullRequest, parsePrId, prPath } from '../../api/pull-requests.ts';
import { defineCommand } from '../../command.ts';
import type { Ui } from '../../output/ui.ts';
import { prContext, prIdArg } from './pr-context.ts';

/** File diffs asked for at once: enough to hide the round trip, few enough not to crowd the server. */
const diffConcurrency = 6;

type Options = { id: Id; stat: boolean; path?: string; maxLines: number; context?: number };

function wholeNumber(value: unknown, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(String(value)))
    throw new UsageError(`${flag} "${value}" must be a whole number (0 or more)`);
  return Number(value);
}

function printStat(d: PrDiffOutput, ui: Ui): void {
  const width = Math.max(0, ...d.files.map((f) => f.path.length));
  for (const f of d.files) {
    const n = f.additions + f.deletions;
    const bar = f.binary
      ? 'Bin'
      : `${n} ${'+'.repeat(Math.min(f.additions, 40))}${'-'.repeat(Math.min(f.deletions, 40))}`;
    ui.line(` ${f.path.padEnd(width)} | ${bar}`);
  }
  ui.line(
    ` ${d.files.length} file${d.files.length === 1 ? '' : 's'} changed, ${d.additions} insertion${d.additions === 1 ? '' : 's'}(+), ${d.deletions} deletion${d.deletions === 1 ? '' : 's'}(-)`,
  );
}

/** `bbdc pr diff <id>`: the pull request's diff file by file; files over --max-lines are summarised, not printed. */
export const command = defineCommand<Options, PrDiffOutput>({
  name: 'pr diff',
  summary: 'Show the diff of a pull request',
  description:
    'Each file is fetched on its own, so one huge file does not hide the rest: a file whose diff has more than --max-lines lines (default 5000; 0 for no limit) is listed as skipped, with its size. --stat prints a diffstat instead.',
  args: [prIdArg],
  flags: {
    stat: { type: 'boolean', description: 'Show a diffstat: lines added and removed per file' },
    path: { type: 'string', value: 'PATH', description: 'Only this file' },
    maxLines: {
      type: 'string',
      value: 'N',
      description: 'Skip files whose diff is longer (default 5000, 0: none)',
    },
    context: { type: 'string', value: 'N', description: 'Lines of context around changes (server default)' },
  },
  outputSchema: 'pr-diff',
  effect: 'safe',
  examples: ['bbdc pr diff 42', 'bbdc pr diff 42 --stat', 'bbdc pr diff 42 --path src/app.ts --max-lines 0'],
  parse: ({ args, flags }) => ({
    id: parsePrId(args[0]),
    stat: flags.stat === true,
    path: (flags.path as string | undefined)?.replace(/^\/+/, ''),
    maxLines: wholeNumber(flags.maxLines, '--max-lines', 5000),
    context: flags.context === undefined ? undefined : wholeNumber(flags.context, '--context', 3),
  }),
  async run(o, deps) {
    const { repo, client } = await prContext(deps);
    // The pull request is read only to fail clearly when it does not exist: its changes are asked for alongside.
    const [, { changes: all }] = await Promise.all([
      fetchPullRequest(client, repo, o.id),
      readChanges(client, prPath(repo, o.id, '/changes'), undefined),
    ]);
    const changes = all.filter((c) => !o.path || c.path === o.path);
    const files = await mapConcurrently(changes, diffConcurrency, async (change): Promise<DiffFile> => {
      const answer = await client.get<RestDiff | { diffs?: RestDiff[] }>(
        prPath(repo, o.id, `/diff/${filePath('changed file path', change.path)}`),
        { contextLines: o.context, srcPath: change.srcPath, withComments: false },
      );
      const diff = firstDiff(answer);
      const u = unifiedDiff(change, diff);
      const skipped = o.maxLines > 0 && u.lines > o.maxLines;
      return {
        path: change.path,
        ...(change.srcPath !== undefined && { srcPath: change.srcPath }),
        type: change.type,
        additions: u.additions,
        deletions: u.deletions,
        lines: u.lines,
        binary: diff.binary === true,
        truncated: diff.truncated === true,
        skipped,
        ...(!o.stat && !skipped && { patch: u.patch }),
      };
    });
    return {
      pullRequest: o.id,
      repository: `${repo.project}/${repo.slug}`,
      stat: o.stat,
      additions: files.reduce((n, f) => n + f.additions, 0),
      deletions: files.reduce((n, f) => n + f.deletions, 0),
      files,
    };
  },
  human(d, ui) {
    if (d.stat) return printStat(d, ui);
    for (const f of d.files) {
      if (f.skipped) {
        ui.line(ui.bold(`diff --git a/${f.srcPath ?? f.path} b/${f.path}`));
        ui.line(
          `(not shown: ${f.lines} diff lines is over --max-lines; run bbdc pr diff ${d.pullRequest} --path ${f.path} --max-lines 0)`,
        );
        continue;
      }
      for (const line of (f.patch ?? '').split('\n'))
        ui.line(line.startsWith('diff --git') || line.startsWith('@@') ? ui.bold(line) : line);
      if (f.truncated) ui.line('(the server cut this diff short)');
    }
  },
});
