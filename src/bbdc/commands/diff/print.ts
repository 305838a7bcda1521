// The human and JSON forms every `bbdc diff` command shares.
import type { DiffOutput } from '../../../../generated/types/cli/output/diff.ts';
import type { BitbucketClient } from '../../api/client.ts';
import { diffStat, statLines } from '../../api/diff-stat.ts';
import { repoPath } from '../../api/repositories.ts';
import type { FlagSpec, RepoContext } from '../../command.ts';
import type { Ui } from '../../output/ui.ts';

export const diffFlags: Record<string, FlagSpec> = {
  stat: {
    type: 'boolean',
    description: 'Only the files with lines added and removed (like git diff --stat)',
  },
  path: { type: 'string', value: 'PATH', description: 'Only this file' },
  context: { type: 'string', value: 'N', description: 'Lines of context (default 3)' },
};

/** Reads the raw diff between two commits (`since` undefined: the commit's first parent) and sums it up. */
export async function readDiff(
  client: BitbucketClient,
  repo: RepoContext,
  range: { since?: string; until: string },
  o: { stat: boolean; path?: string; context?: number },
): Promise<DiffOutput> {
  const text = (
    await client.bytes(`${repoPath(repo.project, repo.slug)}/diff`, {
      since: range.since,
      until: range.until,
      contextLines: o.context,
    })
  ).toString('utf8');
  const files = diffStat(text).filter((f) => !o.path || f.path === o.path || f.srcPath === o.path);
  return {
    repository: `${repo.project}/${repo.slug}`,
    ...(range.since && { from: range.since }),
    to: range.until,
    files,
    ...(!o.stat && { diff: o.path ? onlyPath(text, o.path) : text }),
  };
}

function onlyPath(text: string, path: string): string {
  const parts = text.split(/(?=^diff --git )/m);
  return parts.filter((p) => p.startsWith(`diff --git a/${path} `) || p.includes(` b/${path}\n`)).join('');
}

/** The diff as text (colour on a terminal), or the stat. */
export function printDiff(d: DiffOutput, ui: Ui): void {
  if (d.diff === undefined) {
    for (const l of statLines(d.files)) ui.line(l);
    return;
  }
  for (const line of d.diff.replace(/\n$/, '').split('\n')) {
    if (!ui.color) ui.line(line);
    else if (line.startsWith('+') && !line.startsWith('+++')) ui.line(`\u001b[32m${line}\u001b[39m`);
    else if (line.startsWith('-') && !line.startsWith('---')) ui.line(`\u001b[31m${line}\u001b[39m`);
    else if (line.startsWith('@@')) ui.line(`\u001b[36m${line}\u001b[39m`);
    else ui.line(line);
  }
}
