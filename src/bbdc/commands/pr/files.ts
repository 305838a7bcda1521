import type { PrFilesOutput } from '../../../../generated/types/cli/output/pr-files.ts';
import type { Id } from '../../api/ids.ts';
import { readChanges } from '../../api/pr-changes.ts';
import { parsePrId, prPath } from '../../api/pull-requests.ts';
import { defineCommand } from '../../command.ts';
import { positiveInt } from '../repo/list.ts';
import { prContext, prIdArg } from './pr-context.ts';

type Options = { id: Id; limit: number };

const words = {
  ADD: 'added',
  COPY: 'copied',
  DELETE: 'deleted',
  MODIFY: 'modified',
  MOVE: 'moved',
  UNKNOWN: 'changed',
};

/** `bbdc pr files <id>`: the files the pull request changes and how. */
export const command = defineCommand<Options, PrFilesOutput>({
  name: 'pr files',
  summary: 'List the files a pull request changes',
  args: [prIdArg],
  flags: {
    limit: { type: 'string', shortFlag: 'L', value: 'N', description: 'Maximum number (default 1000)' },
  },
  outputSchema: 'pr-files',
  effect: 'safe',
  examples: ['bbdc pr files 42', "bbdc pr files 42 --json | jq -r '.data.files[].path'"],
  parse: ({ args, flags }) => ({ id: parsePrId(args[0]), limit: positiveInt(flags.limit, '--limit', 1000) }),
  async run(o, deps) {
    const { repo, client } = await prContext(deps);
    const { changes: files, truncated } = await readChanges(client, prPath(repo, o.id, '/changes'), o.limit);
    return {
      pullRequest: o.id,
      repository: `${repo.project}/${repo.slug}`,
      files,
      count: files.length,
      truncated,
    };
  },
  human(d, ui) {
    ui.table(
      ['change', 'path'],
      d.files.map((f) => [words[f.type], f.srcPath ? `${f.srcPath} → ${f.path}` : f.path]),
    );
    if (d.truncated) ui.notice(`Showing the first ${d.count}; raise --limit for more.`);
  },
});
