// `pr watch` and `pr unwatch`: one request each, the same in the dry run and the run.
import type { PrWatchOutput } from '../../../../generated/types/cli/output/pr-watch.ts';
import type { Id } from '../../api/ids.ts';
import { fetchPullRequest, parsePrId, prPath } from '../../api/pull-requests.ts';
import type { CommandDeps } from '../../command.ts';
import { defineCommand } from '../../command.ts';
import { apply, type Change, planOf } from '../../output/change.ts';
import { prContext, prIdArg } from './pr-context.ts';

async function prepare(id: Id, watch: boolean, deps: CommandDeps): Promise<Change & { repository: string }> {
  const { repo, client } = await prContext(deps);
  const pr = await fetchPullRequest(client, repo, id);
  return {
    client,
    repository: `${repo.project}/${repo.slug}`,
    intent: `bbdc pr ${watch ? 'watch' : 'unwatch'} ${id}`,
    host: repo.host.url,
    target: { type: 'pull-request', id: `${repo.project}/${repo.slug}#${id}` },
    request: { method: watch ? 'POST' : 'DELETE', path: prPath(repo, id, '/watch') },
    description: `${watch ? 'watch' : 'stop watching'} pull request #${id}`,
    predicted: 'update',
    reasons: [`pull request #${id} is ${pr.state}`],
  };
}

/** The watch or unwatch command. */
export function watchCommand(watch: boolean) {
  const verb = watch ? 'watch' : 'unwatch';
  return defineCommand<{ id: Id }, PrWatchOutput>({
    name: `pr ${verb}`,
    summary: watch
      ? 'Get notified about a pull request you do not take part in'
      : 'Stop notifications about a pull request',
    args: [prIdArg],
    flags: {},
    outputSchema: 'pr-watch',
    effect: 'mutating',
    examples: [`bbdc pr ${verb} 42`],
    parse: ({ args }) => ({ id: parsePrId(args[0]) }),
    plan: async (o, deps) => planOf(await prepare(o.id, watch, deps)),
    async run(o, deps) {
      const change = await prepare(o.id, watch, deps);
      await apply(change);
      return { pullRequest: o.id, repository: change.repository, watching: watch };
    },
    human(d, ui) {
      ui.line(`${d.watching ? 'Watching' : 'No longer watching'} pull request #${d.pullRequest}`);
    },
  });
}
