import type { DeploymentDeleteOutput } from '../../../../generated/types/cli/output/deployment-delete.ts';
import { getIfExists } from '../../api/optional.ts';
import { type CommandDeps, defineCommand } from '../../command.ts';
import { apply, planOf } from '../../output/change.ts';
import {
  commitArg,
  deploymentsPath,
  identity,
  identityFlags,
  identityQuery,
  type RestDeployment,
} from './common.ts';

type Options = ReturnType<typeof identity>;

async function prepare(o: Options, deps: CommandDeps) {
  const repo = await deps.repo();
  const client = await deps.client(repo.host);
  const path = deploymentsPath(repo, o.commit);
  const existing = await getIfExists<RestDeployment>(client, path, identityQuery(o));
  return {
    existed: existing !== undefined,
    change: {
      client,
      intent: `bbdc deployment delete ${o.commit.slice(0, 11)} --key ${o.key} --environment ${o.environment} --sequence ${o.sequence}`,
      host: repo.host.url,
      target: {
        type: 'deployment',
        id: `${repo.project}/${repo.slug}@${o.commit.slice(0, 11)}/${o.environment}/${o.key}#${o.sequence}`,
      },
      request: { method: 'DELETE', path, query: identityQuery(o) },
      description: `delete deployment ${o.key} #${o.sequence} to ${o.environment}`,
      predicted: existing ? ('delete' as const) : ('no-op' as const),
      reasons: [existing ? `the deployment is ${existing.state}` : 'no such deployment'],
    },
  };
}

/** `bbdc deployment delete <commit>`: removes a recorded deployment (nothing to do when there is none). */
export const command = defineCommand<Options, DeploymentDeleteOutput>({
  name: 'deployment delete',
  summary: 'Delete a recorded deployment of a commit',
  args: [commitArg],
  flags: identityFlags,
  outputSchema: 'deployment-delete',
  effect: 'mutating',
  examples: ['bbdc deployment delete <sha> --key web --environment production --sequence 12'],
  parse: ({ args, flags }) => identity(args, flags),
  plan: async (o, deps) => planOf((await prepare(o, deps)).change),
  async run(o, deps) {
    const p = await prepare(o, deps);
    await apply(p.change);
    return {
      commit: o.commit,
      key: o.key,
      environment: o.environment,
      sequence: o.sequence,
      deleted: p.existed,
    };
  },
  human(d, ui) {
    ui.line(
      d.deleted
        ? `Deleted deployment ${d.key} #${d.sequence} to ${d.environment}`
        : 'No such deployment; nothing to delete',
    );
  },
});
