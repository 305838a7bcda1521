import type { RepoBlameOutput } from '../../../../../generated/types/cli/output/repo-blame.ts';
import { contentPath, type RestBlame, readRaw } from '../../../api/content.ts';
import { utcIso } from '../../../api/timestamps.ts';
import { defineCommand } from '../../../command.ts';

type Options = { path: string; ref?: string };

/** `bbdc repo browse blame <path>`: who last changed each line of a file, and in which commit. */
export const command = defineCommand<Options, RepoBlameOutput>({
  name: 'repo browse blame',
  summary: 'Show who last changed each line of a file, and in which commit',
  args: [{ name: 'path', required: true, description: 'File path in the repository' }],
  flags: {
    ref: { type: 'string', value: 'REF', description: 'Branch, tag or commit (default: the default branch)' },
  },
  outputSchema: 'repo-blame',
  effect: 'safe',
  examples: ['bbdc repo browse blame src/main.ts', 'bbdc repo browse blame README.md --ref v1.0 --json'],
  parse: ({ args, flags }) => ({
    path: String(args[0] ?? '').replace(/^\/+/, ''),
    ref: flags.ref as string | undefined,
  }),
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const answer = await client.get<RestBlame[] | undefined>(contentPath(repo, 'browse', o.path), {
      at: o.ref,
      blame: 'true',
      noContent: 'true',
    });
    const text = (await readRaw(client, repo, o.path, o.ref)).toString('utf8').replace(/\n$/, '').split('\n');
    // Blame is a list of spans; an empty or other answer (the document declares no body) has none.
    const spans = Array.isArray(answer) ? answer : [];
    const lines: RepoBlameOutput['lines'] = [];
    for (const s of spans) {
      for (let n = s.lineNumber; n < s.lineNumber + s.spannedLines; n++) {
        lines.push({
          line: n,
          commit: s.commitId ?? s.commitHash ?? '',
          author: s.author.name,
          date: utcIso(s.authorTimestamp),
          text: text[n - 1] ?? '',
        });
      }
    }
    return { repository: `${repo.project}/${repo.slug}`, path: o.path, ...(o.ref && { ref: o.ref }), lines };
  },
  human(d, ui) {
    const width = String(d.lines.length).length;
    const who = Math.max(...d.lines.map((l) => l.author.length), 0);
    for (const l of d.lines)
      ui.line(
        `${l.commit.slice(0, 11)} ${l.author.padEnd(who)} ${l.date.slice(0, 10)} ${String(l.line).padStart(width)}) ${l.text}`,
      );
  },
});
