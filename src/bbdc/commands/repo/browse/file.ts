import type { RepoFileLinesOutput } from '../../../../../generated/types/cli/output/repo-file-lines.ts';
import { RealmforgeError } from '../../../../core/errors.ts';
import { contentPath, type RestBrowse } from '../../../api/content.ts';
import { collectPages, type Page } from '../../../api/paging.ts';
import { limitFlag, positiveInt } from '../../../cli/paging-flags.ts';
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
    limit: limitFlag('lines in total', 10000),
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
    // A file is a page of lines; an empty answer (the document declares no body) is read as nothing.
    const { values, truncated } = await collectPages<{ text: string }>(
      client,
      contentPath(repo, 'browse', o.path),
      { at: o.ref },
      o.limit,
      0,
      (answer) => {
        const res = (answer ?? {}) as RestBrowse;
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
        return { ...(res as Page<{ text: string }>), values: res.lines ?? [] };
      },
    );
    const lines = values.map((l) => l.text);
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
