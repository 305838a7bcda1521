import type { DeploymentOutput } from '../../../../generated/types/cli/output/deployment.ts';
import { UsageError } from '../../../core/errors.ts';
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
  toDeployment,
} from './common.ts';
import { printDeployment } from './get.ts';

const states = ['pending', 'in-progress', 'cancelled', 'failed', 'rolled-back', 'successful', 'unknown'];
type Options = ReturnType<typeof identity> & { body: Record<string, unknown> };

async function prepare(o: Options, deps: CommandDeps) {
  const repo = await deps.repo();
  const client = await deps.client(repo.host);
  const path = deploymentsPath(repo, o.commit);
  const existing = await getIfExists<RestDeployment>(client, path, identityQuery(o));
  return {
    client,
    intent: `bbdc deployment create ${o.commit.slice(0, 11)} --key ${o.key} --environment ${o.environment} --sequence ${o.sequence}`,
    host: repo.host.url,
    target: {
      type: 'deployment',
      id: `${repo.project}/${repo.slug}@${o.commit.slice(0, 11)}/${o.environment}/${o.key}#${o.sequence}`,
    },
    request: { method: 'POST', path, body: o.body },
    description: `${existing ? 'update' : 'record'} deployment ${o.key} #${o.sequence} to ${o.environment} as ${String(o.body.state).toLowerCase()}`,
    predicted: existing ? ('update' as const) : ('create' as const),
    reasons: [existing ? `the deployment is ${existing.state}` : 'no such deployment yet'],
  };
}

/** `bbdc deployment create <commit>`: records (or updates) a deployment of a commit, as a CD tool reports it. */
export const command = defineCommand<Options, DeploymentOutput>({
  name: 'deployment create',
  summary: 'Record or update a deployment of a commit to an environment',
  args: [commitArg],
  flags: {
    ...identityFlags,
    state: {
      type: 'string',
      value: 'STATE',
      choices: states,
      description: `${states.join(', ')} (required)`,
    },
    url: { type: 'string', value: 'URL', description: 'Link to the deployment (required)' },
    name: { type: 'string', value: 'TEXT', description: 'Display name (default: the key)' },
    description: {
      type: 'string',
      value: 'TEXT',
      description: 'Description (default: the environment and sequence)',
    },
    environmentName: {
      type: 'string',
      value: 'TEXT',
      description: 'Environment display name (default: its key)',
    },
    environmentType: {
      type: 'string',
      value: 'TYPE',
      choices: ['development', 'testing', 'staging', 'production'],
      description: 'Environment type',
    },
  },
  outputSchema: 'deployment',
  effect: 'mutating',
  examples: [
    'bbdc deployment create <sha> --key web --environment production --sequence 12 --state successful --url https://cd.example/12',
  ],
  parse: ({ args, flags }) => {
    const id = identity(args, flags);
    if (!flags.state) throw new UsageError(`--state is required: ${states.join(', ')}`);
    if (!flags.url) throw new UsageError('--url is required: where the deployment can be seen');
    const body = {
      key: id.key,
      deploymentSequenceNumber: id.sequence,
      displayName: String(flags.name ?? id.key),
      description: String(flags.description ?? `${id.key} #${id.sequence} to ${id.environment}`),
      state: String(flags.state).toUpperCase().replace('-', '_'),
      url: String(flags.url),
      environment: {
        key: id.environment,
        displayName: String(flags.environmentName ?? id.environment),
        ...(flags.environmentType !== undefined && { type: String(flags.environmentType).toUpperCase() }),
      },
    };
    return { ...id, body };
  },
  plan: async (o, deps) => planOf(await prepare(o, deps)),
  async run(o, deps) {
    const res = await apply<RestDeployment>(await prepare(o, deps));
    return toDeployment(res!.data, o.commit);
  },
  human: printDeployment,
});
