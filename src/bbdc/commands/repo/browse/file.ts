import type { RepoFileLinesOutput } from '../../../../../generated/types/cli/output/repo-file-lines.ts';
import { RealmforgeError } from '../../../../core/errors.ts';
import { contentPath, type RestBrowse } from '../../../api/content.ts';
import { maxPageSize } from '../../../api/paging.ts';
import { positiveInt } from '../../../cli/paging-flags.ts';
import { defineCommand } from '../../../command.ts';

type Options = { path: string; ref?: string; limit: number };

/** `bbdc repo browse file <path>`: a text file's lines at a ref, numbered on a terminal. */
export const command = defineCommand<Options, RepoFileLinesOutput>({
  name: 'repo browse file',
  summary: 'Show the lines of a text file at a ref (numbered on a terminal)',
  description: 'For the exact bytes of any file, binary included, use `bbdc repo cat`.',
  args: [{ name: 'path', required: true, description: 'File path in the repository' }],
  flags: {
    ref: { type: 'string', value: 'REF', description: 'Branch, tag or commit (default: the default branch)' },
    limit: {
      type: 'string',
      shortFlag: 'L',
      value: 'N',
      description: 'Maximum number of lines in total (default 10000)',
    },
  },
  outputSchema: 'repo-file-lines',
  effect: 'safe',
  examples: ['bbdc repo browse file src/main.ts --ref feature/login'],
  parse: ({ args, flags }) => ({
    path: String(args[0] ?? '').replace(/^\/+/, ''),
    ref: flags.ref as string | undefined,
    limit: positiveInt(flags.limit, '--limit', 10_000),
  }),
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const lines: string[] = [];
    let start = 0;
    let truncated = false;
    for (;;) {
      const want = Math.min(maxPageSize, o.limit - lines.length);
      const res = await client.get<RestBrowse>(contentPath(repo, 'browse', o.path), {
        at: o.ref,
        start,
        limit: want,
      });
      if (res.binary)
        throw new RealmforgeError(
          'validation',
          `${o.path} is a binary file; print its bytes with \`bbdc repo cat ${o.path}\``,
        );
      if (res.children)
        throw new RealmforgeError(
          'validation',
          `${o.path} is a directory; list it with \`bbdc repo browse tree ${o.path}\``,
        );
      lines.push(...(res.lines ?? []).slice(0, want).map((l) => l.text));
      if (res.isLastPage !== false || res.nextPageStart === undefined || !res.lines?.length) break;
      if (lines.length >= o.limit) {
        truncated = true;
        break;
      }
      start = res.nextPageStart;
    }
    return {
      repository: `${repo.project}/${repo.slug}`,
      path: o.path,
      ...(o.ref && { ref: o.ref }),
      lines,
      truncated,
    };
  },
  human(d, ui) {
    const width = String(d.lines.length).length;
    for (const [i, text] of d.lines.entries())
      ui.line(ui.tty ? `${ui.dim(String(i + 1).padStart(width))}  ${text}` : text);
    if (d.truncated) ui.notice(`Showing the first ${d.lines.length} lines; raise --limit for more.`);
  },
});
