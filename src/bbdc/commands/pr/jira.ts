import type { PrJiraOutput } from '../../../../generated/types/cli/output/pr-jira.ts';
import type { Id } from '../../api/ids.ts';
import { segment } from '../../api/path.ts';
import { parsePrId } from '../../api/pull-requests.ts';
import { defineCommand } from '../../command.ts';
import { prContext, prIdArg } from './pr-context.ts';

/** `bbdc pr jira <id>`: the Jira issues a pull request is linked to (needs the server's Jira integration). */
export const command = defineCommand<{ id: Id }, PrJiraOutput>({
  name: 'pr jira',
  summary: 'List the Jira issues linked to a pull request',
  description: 'Needs a Jira application link on the server; without one the server answers 404.',
  args: [prIdArg],
  flags: {},
  outputSchema: 'pr-jira',
  effect: 'safe',
  examples: ['bbdc pr jira 42'],
  parse: ({ args }) => ({ id: parsePrId(args[0]) }),
  async run(o, deps) {
    const { repo, client } = await prContext(deps);
    const issues = await client.get<{ key: string; url?: string }[]>(
      `/rest/jira/latest/projects/${segment('project', repo.project)}/repos/${segment('repository', repo.slug)}/pull-requests/${o.id}/issues`,
    );
    return {
      pullRequest: o.id,
      repository: `${repo.project}/${repo.slug}`,
      issues: issues.map((i) => ({ key: i.key, ...(i.url && { url: i.url }) })),
    };
  },
  human(d, ui) {
    if (!d.issues.length) ui.notice(`Pull request #${d.pullRequest} is linked to no Jira issue.`);
    ui.table(
      ['issue', 'url'],
      d.issues.map((i) => [i.key, i.url ?? '']),
    );
  },
});
