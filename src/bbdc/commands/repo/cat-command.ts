// `repo cat` and `repo browse raw`: one definition under two names (bb users look for the second).
import type { RepoFileOutput } from '../../../../generated/types/cli/output/repo-file.ts';
import { UsageError } from '../../../core/errors.ts';
import { encodeContent, readRaw } from '../../api/content.ts';
import { defineCommand } from '../../command.ts';

type Options = { path: string; ref?: string };

/** A command that prints a file's exact bytes at a ref. */
export function catCommand(name: string) {
  return defineCommand<Options, RepoFileOutput & { bytes?: Buffer }>({
    name,
    summary: 'Print a file of a repository at a branch, tag or commit, byte for byte, without cloning',
    description:
      'Human output is the exact bytes (pipe it to a file); --json carries the text as UTF-8, or base64 for binary files.',
    args: [{ name: 'path', required: true, description: 'File path in the repository, e.g. src/main.ts' }],
    flags: {
      ref: {
        type: 'string',
        value: 'REF',
        description: 'Branch, tag or commit (default: the default branch)',
      },
    },
    outputSchema: 'repo-file',
    effect: 'safe',
    examples: [`bbdc ${name} README.md`, `bbdc ${name} assets/logo.png --ref v1.0 > logo.png`],
    parse: ({ args, flags }) => {
      const path = String(args[0] ?? '').replace(/^\/+/, '');
      if (!path) throw new UsageError('path is required: the file to print, e.g. README.md');
      return { path, ref: flags.ref as string | undefined };
    },
    async run(o, deps) {
      const repo = await deps.repo();
      const client = await deps.client(repo.host);
      const data = await readRaw(client, repo, o.path, o.ref);
      const out = {
        repository: `${repo.project}/${repo.slug}`,
        path: o.path,
        ...(o.ref && { ref: o.ref }),
        size: data.length,
        ...encodeContent(data),
      };
      // The bytes ride along for the human form only; the JSON envelope drops non-enumerable fields.
      Object.defineProperty(out, 'bytes', { value: data, enumerable: false });
      return out;
    },
    human(d, ui) {
      ui.bytes(d.bytes ?? Buffer.from(d.content, d.encoding === 'base64' ? 'base64' : 'utf8'));
    },
  });
}
