import type { DeploymentOutput } from '../../../../generated/types/cli/output/deployment.ts';
import { defineCommand } from '../../command.ts';
import type { Ui } from '../../output/ui.ts';
import {
  commitArg,
  deploymentsPath,
  identity,
  identityFlags,
  identityQuery,
  type RestDeployment,
  toDeployment,
} from './common.ts';

type Options = ReturnType<typeof identity>;

/** One line about a deployment. */
export function printDeployment(d: DeploymentOutput, ui: Ui): void {
  ui.line(`${d.key} #${d.sequence} to ${d.environment}: ${d.state} (commit ${d.commit.slice(0, 11)})`);
  if (d.url) ui.line(ui.dim(d.url));
}

/** `bbdc deployment get <commit> --key K --environment E --sequence N`: one deployment of a commit. */
export const command = defineCommand<Options, DeploymentOutput>({
  name: 'deployment get',
  summary: 'Show a deployment of a commit to an environment',
  args: [commitArg],
  flags: identityFlags,
  outputSchema: 'deployment',
  effect: 'safe',
  examples: ['bbdc deployment get <sha> --key web --environment production --sequence 12'],
  parse: ({ args, flags }) => identity(args, flags),
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    return toDeployment(
      await client.get<RestDeployment>(deploymentsPath(repo, o.commit), identityQuery(o)),
      o.commit,
    );
  },
  human: printDeployment,
});
