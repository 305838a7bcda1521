import type { RepoTreeOutput } from '../../../../../generated/types/cli/output/repo-tree.ts';
import { contentPath, type RestBrowse, type RestChild } from '../../../api/content.ts';
import { collectPages, type Page } from '../../../api/paging.ts';
import { limitFlag, positiveInt } from '../../../cli/paging-flags.ts';
import { defineCommand } from '../../../command.ts';

type Options = { path: string; ref?: string; limit: number };

/** `bbdc repo browse tree [path]`: the entries of a directory at a ref, directories first. */
export const command = defineCommand<Options, RepoTreeOutput>({
  name: 'repo browse tree',
  summary: 'List the files and directories of a repository directory at a ref',
  args: [{ name: 'path', required: false, description: 'Directory (default: the root)' }],
  flags: {
    ref: { type: 'string', value: 'REF', description: 'Branch, tag or commit (default: the default branch)' },
    limit: limitFlag('entries in total', 1000),
  },
  outputSchema: 'repo-tree',
  effect: 'safe',
  examples: ['bbdc repo browse tree', 'bbdc repo browse tree src --ref v1.0'],
  parse: ({ args, flags }) => ({
    path: String(args[0] ?? '').replace(/^\/+|\/+$/g, ''),
    ref: flags.ref as string | undefined,
    limit: positiveInt(flags.limit, '--limit', 1000),
  }),
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    // A directory's answer wraps a page of its children; an empty answer is read as an empty directory.
    const { values, truncated } = await collectPages<RestChild>(
      client,
      contentPath(repo, 'browse', o.path),
      { at: o.ref },
      o.limit,
      0,
      (answer) => (answer as RestBrowse | undefined)?.children as Page<RestChild> | undefined,
    );
    const entries: RepoTreeOutput['entries'] = values.map((c) => {
      const name = c.path.toString;
      return {
        name,
        path: o.path ? `${o.path}/${name}` : name,
        type: c.type === 'DIRECTORY' ? 'directory' : c.type === 'SUBMODULE' ? 'submodule' : 'file',
        ...(c.size !== undefined && { size: c.size }),
      };
    });
    return {
      repository: `${repo.project}/${repo.slug}`,
      path: o.path,
      ...(o.ref && { ref: o.ref }),
      entries,
      truncated,
    };
  },
  human(d, ui) {
    ui.table(
      ['type', 'size', 'path'],
      d.entries.map((e) => [
        e.type,
        e.size === undefined ? '' : String(e.size),
        e.type === 'directory' ? `${e.path}/` : e.path,
      ]),
    );
    if (d.truncated) ui.notice(`Showing the first ${d.entries.length}; raise --limit for more.`);
  },
});
