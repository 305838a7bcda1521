import type { PrOutput } from '../../../../generated/types/cli/output/pr.ts';
import type { Id } from '../../api/ids.ts';
import {
  fetchPullRequest,
  parsePrId,
  prPath,
  type RestPullRequest,
  toPullRequest,
} from '../../api/pull-requests.ts';
import { type CommandDefinition, defineCommand, type FlagSpec } from '../../command.ts';
import { planPrChange, prContext, prIdArg } from './pr-context.ts';

type Options = { id: Id; comment?: string };

/** What differs between decline and reopen: the verb, the state it needs and whether a comment may go along. */
type Transition = {
  verb: 'decline' | 'reopen';
  past: string;
  needs: RestPullRequest['state'];
  summary: string;
  comment: boolean;
};

/** Builds `bbdc pr decline|reopen <id>`: POST .../<verb>?version=N with the version just read. */
export function stateChangeCommand(t: Transition): CommandDefinition<Options, PrOutput> {
  const flags: Record<string, FlagSpec> = t.comment
    ? { comment: { type: 'string', shortFlag: 'c', value: 'TEXT', description: 'Say why, as a comment' } }
    : {};
  const body = (pr: RestPullRequest, o: Options) => ({
    version: pr.version,
    ...(o.comment && { comment: o.comment }),
  });
  return defineCommand<Options, PrOutput>({
    name: `pr ${t.verb}`,
    summary: t.summary,
    args: [prIdArg],
    flags,
    outputSchema: 'pr',
    effect: 'mutating',
    examples: [`bbdc pr ${t.verb} 42${t.comment ? ' --comment "Superseded by #43"' : ''}`],
    parse: ({ args, flags: f }) => ({ id: parsePrId(args[0]), comment: f.comment as string | undefined }),
    plan: (o, deps) =>
      planPrChange(deps, o.id, `bbdc pr ${t.verb} ${o.id}`, (pr, { repo }) => ({
        description: `${t.verb} pull request #${o.id}`,
        method: 'POST',
        path: `${prPath(repo, o.id, `/${t.verb}`)}?version=${pr.version}`,
        body: body(pr, o),
        predictedAction: 'update',
        blockingReasons:
          pr.state === t.needs ? [] : [`pull request #${o.id} is ${pr.state}; ${t.verb} needs it ${t.needs}`],
      })),
    async run(o, deps) {
      const { repo, client } = await prContext(deps);
      const pr = await fetchPullRequest(client, repo, o.id);
      const res = await client.request<RestPullRequest>('POST', prPath(repo, o.id, `/${t.verb}`), {
        query: { version: pr.version },
        body: body(pr, o),
      });
      return toPullRequest(res.data, repo);
    },
    human(d, ui) {
      ui.line(`${t.past} pull request #${d.id}: ${d.title} (now ${d.state})`);
    },
  });
}
