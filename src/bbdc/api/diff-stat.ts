// Per-file line counts from a unified diff (git's format, as Bitbucket's raw diff streams it). Pure.
import type { DiffFile } from '../../../generated/types/cli/output/diff.ts';

/** The files of a unified diff with lines added and removed, and whether each was added, deleted or modified. */
export function diffStat(text: string): DiffFile[] {
  const files: DiffFile[] = [];
  let current: DiffFile | undefined;
  for (const line of text.split('\n')) {
    const header = /^diff --git a\/(.+) b\/(.+)$/.exec(line);
    if (header) {
      current = { path: header[2], type: 'MODIFY', added: 0, removed: 0 };
      if (header[1] !== header[2]) current.srcPath = header[1];
      files.push(current);
      continue;
    }
    if (!current) continue;
    if (line === '--- /dev/null' || line.startsWith('new file mode ')) current.type = 'ADD';
    else if (line.startsWith('deleted file mode ')) current.type = 'DELETE';
    else if (line === '+++ /dev/null') current.type = 'DELETE';
    else if (line.startsWith('Binary files ')) current.binary = true;
    else if (line.startsWith('+') && !line.startsWith('+++ ')) current.added++;
    else if (line.startsWith('-') && !line.startsWith('--- ')) current.removed++;
  }
  return files;
}

/** git's --stat layout: `path | N ++--`, then the totals. */
export function statLines(files: DiffFile[]): string[] {
  const width = Math.max(0, ...files.map((f) => f.path.length));
  const most = Math.max(1, ...files.map((f) => f.added + f.removed));
  const bar = (n: number) => Math.round((n / most) * Math.min(most, 40));
  const lines = files.map((f) =>
    f.binary
      ? ` ${f.path.padEnd(width)} | Bin`
      : ` ${f.path.padEnd(width)} | ${String(f.added + f.removed).padStart(3)} ${'+'.repeat(bar(f.added))}${'-'.repeat(bar(f.removed))}`,
  );
  const added = files.reduce((a, f) => a + f.added, 0);
  const removed = files.reduce((a, f) => a + f.removed, 0);
  lines.push(
    ` ${files.length} file${files.length === 1 ? '' : 's'} changed, ${added} insertion${added === 1 ? '' : 's'}(+), ${removed} deletion${removed === 1 ? '' : 's'}(-)`,
  );
  return lines;
}
