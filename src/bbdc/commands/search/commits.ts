import type { SearchCommitsOutput } from '../../../../generated/types/cli/output/search-commits.ts';
import { UsageError } from '../../../core/errors.ts';
import type { Page } from '../../api/paging.ts';
import { maxPageSize, nextStart } from '../../api/paging.ts';
import { repoPath } from '../../api/repositories.ts';
import { isoTime } from '../../api/timestamps.ts';
import { limitFlag } from '../../cli/paging-flags.ts';
import { defineCommand } from '../../command.ts';
import { positiveInt } from '../repo/list.ts';

type RestCommit = {
  id: string;
  displayId: string;
  message: string;
  author: { name: string; emailAddress?: string; displayName?: string };
  authorTimestamp: number;
  parents?: { id: string }[];
};
type Options = {
  query?: string;
  author?: string;
  path?: string;
  since?: string;
  until?: string;
  merges?: 'exclude' | 'include' | 'only';
  limit: number;
  scan: number;
};

/** `bbdc search commits [text]`: commits whose message contains the text, read from the history newest first. */
export const command = defineCommand<Options, SearchCommitsOutput>({
  name: 'search commits',
  summary: 'Find commits by message or author (not code search)',
  description:
    'Bitbucket has no commit-search endpoint, so this reads the history (GET .../commits with --path, --since, --until and --merges) newest first and keeps the commits whose message contains the text and whose author matches --author. At most --scan commits are read. This is not code search: file contents are not searched.',
  args: [{ name: 'text', required: false, description: 'Text in the commit message, case-insensitive' }],
  flags: {
    author: {
      type: 'string',
      value: 'NAME',
      description: 'Author name, display name or e-mail contains this',
    },
    path: { type: 'string', value: 'PATH', description: 'Only commits touching this file or directory' },
    since: { type: 'string', value: 'REF', description: 'Only commits after this commit or ref' },
    until: {
      type: 'string',
      value: 'REF',
      description: 'Start from this commit or ref (default: the default branch)',
    },
    merges: {
      type: 'string',
      value: 'MODE',
      choices: ['exclude', 'include', 'only'],
      description: 'Merge commits: include (default), exclude or only',
    },
    limit: limitFlag('results', 30),
    scan: { type: 'string', value: 'N', description: 'Read at most this many commits (default 1000)' },
  },
  outputSchema: 'search-commits',
  effect: 'safe',
  examples: [
    'bbdc search commits "fix login" -R PROJ/api',
    'bbdc search commits --author alice --path src/ --json',
  ],
  parse: ({ args, flags }) => {
    const query = args[0]?.trim() || undefined;
    if (!query && flags.author === undefined)
      throw new UsageError('give some text to look for in commit messages, or --author NAME');
    return {
      query,
      author: flags.author as string | undefined,
      path: flags.path as string | undefined,
      since: flags.since as string | undefined,
      until: flags.until as string | undefined,
      merges: flags.merges as Options['merges'],
      limit: positiveInt(flags.limit, '--limit', 30),
      scan: positiveInt(flags.scan, '--scan', 1000),
    };
  },
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const text = o.query?.toLowerCase();
    const author = o.author?.toLowerCase();
    const keep = (c: RestCommit) =>
      (!text || c.message.toLowerCase().includes(text)) &&
      (!author ||
        [c.author.name, c.author.displayName, c.author.emailAddress].some((v) =>
          v?.toLowerCase().includes(author),
        ));
    const found: RestCommit[] = [];
    let scanned = 0;
    let start = 0;
    let truncated = false;
    const path = `${repoPath(repo.project, repo.slug)}/commits`;
    for (;;) {
      const page = await client.get<Page<RestCommit>>(path, {
        path: o.path,
        since: o.since,
        until: o.until,
        merges: o.merges,
        start,
        limit: Math.min(maxPageSize, o.scan - scanned),
      });
      for (const c of Array.isArray(page?.values) ? page.values : []) {
        scanned++;
        if (!keep(c)) continue;
        if (found.length === o.limit) {
          truncated = true;
          break;
        }
        found.push(c);
      }
      const next = nextStart(page, start, path);
      if (truncated || next === undefined) break;
      if (scanned >= o.scan) {
        truncated = true;
        break;
      }
      start = next;
    }
    return {
      repository: `${repo.project}/${repo.slug}`,
      ...(o.query && { query: o.query }),
      commits: found.map((c) => ({
        id: c.id,
        displayId: c.displayId,
        summary: c.message.split('\n')[0],
        author: c.author.displayName ?? c.author.name,
        date: isoTime(c.authorTimestamp, `commit ${c.id} authorTimestamp`)!,
      })),
      count: found.length,
      scanned,
      truncated,
    };
  },
  human(d, ui) {
    if (d.count === 0) ui.notice(`No commits among the ${d.scanned} read match.`);
    else
      ui.table(
        ['commit', 'date', 'author', 'summary'],
        d.commits.map((c) => [c.displayId, c.date.slice(0, 10), c.author, c.summary]),
      );
    if (d.truncated) ui.notice(`Stopped after ${d.scanned} commits; raise --limit or --scan for more.`);
  },
});
