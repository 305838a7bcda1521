import type { BrowseOutput } from '../../../generated/types/cli/output/browse.ts';
import { filePath, segment } from '../api/path.ts';
import { defineCommand } from '../command.ts';

type Options = { target?: string; branch?: string; browser: boolean };

/** The web URL of a repository page: the repository, a pull request (number), a commit (hex) or a file path. */
export function browseUrl(
  host: string,
  project: string,
  slug: string,
  target?: string,
  branch?: string,
): string {
  const base = project.startsWith('~')
    ? `${host}/users/${segment('project', project.slice(1))}/repos/${segment('repository', slug)}`
    : `${host}/projects/${segment('project', project)}/repos/${segment('repository', slug)}`;
  const at = branch ? `?${new URLSearchParams({ at: `refs/heads/${branch}` })}` : '';
  if (!target) return `${base}/browse${at}`;
  if (/^\d+$/.test(target)) return `${base}/pull-requests/${target}/overview`;
  if (/^[0-9a-f]{7,40}$/i.test(target)) return `${base}/commits/${target.toLowerCase()}`;
  const [, path, line] = /^(.*?)(?::(\d+))?$/.exec(target) ?? [];
  const encoded = filePath('path', path);
  return `${base}/browse/${encoded}${at}${line ? `#${line}` : ''}`;
}

/** `bbdc browse [target]`: opens the repository, a PR, a commit or a file in the browser. */
export const command = defineCommand<Options, BrowseOutput>({
  name: 'browse',
  summary: 'Open a repository, pull request, commit or file in the browser',
  description:
    'TARGET is a pull request number, a commit hash, or a file path (path:line for a line). With no target, the repository. With --json the URL is printed, not opened.',
  args: [{ name: 'target', required: false, description: 'PR number, commit hash or file path[:line]' }],
  flags: {
    branch: { type: 'string', shortFlag: 'b', value: 'BRANCH', description: 'Branch to show files on' },
    browser: { type: 'boolean', default: true, description: 'Print the URL instead of opening a browser' },
  },
  outputSchema: 'browse',
  effect: 'safe',
  examples: ['bbdc browse', 'bbdc browse 42', 'bbdc browse src/main.ts:10 --branch develop --no-browser'],
  parse: ({ args, flags }) => ({
    target: args[0],
    branch: flags.branch as string | undefined,
    browser: flags.browser !== false,
  }),
  async run(o, deps) {
    const repo = await deps.repo();
    const url = browseUrl(repo.host.url, repo.project, repo.slug, o.target, o.branch);
    const open = o.browser && !deps.globals.json;
    if (open) await deps.openBrowser(url);
    return { url, opened: open };
  },
  human(d, ui) {
    if (d.opened) ui.notice(`Opening ${d.url} in your browser.`);
    else ui.line(d.url);
  },
});
