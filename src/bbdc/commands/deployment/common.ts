// `bbdc deployment`: which deployment of a commit a command means, and the shape bbdc prints.
import type { Deployment } from '../../../../generated/types/cli/output/deployment.ts';
import { UsageError } from '../../../core/errors.ts';
import { fullCommitId } from '../../api/builds.ts';
import { segment } from '../../api/path.ts';
import { repoPath } from '../../api/repositories.ts';
import { positiveInt } from '../../cli/paging-flags.ts';
import type { ArgSpec, FlagSpec, RepoContext } from '../../command.ts';

/** A deployment as Bitbucket returns it. */
export type RestDeployment = {
  key: string;
  deploymentSequenceNumber: number;
  displayName?: string;
  description?: string;
  state: string;
  url?: string;
  lastUpdated?: number;
  environment: { key: string; displayName?: string; type?: string; url?: string };
  fromCommit?: { id: string };
};

export const commitArg: ArgSpec = {
  name: 'commit',
  required: true,
  description: 'Full 40-character commit id',
};

/** The flags naming one deployment: --key, --environment and --sequence. */
export const identityFlags: Record<string, FlagSpec> = {
  key: { type: 'string', value: 'KEY', description: 'Deployment key, e.g. web-prod (required)' },
  environment: {
    type: 'string',
    shortFlag: 'e',
    value: 'KEY',
    description: 'Environment key, e.g. production (required)',
  },
  sequence: {
    type: 'string',
    value: 'N',
    description: 'Deployment sequence number, e.g. the pipeline run (required)',
  },
};

/** The deployment's identity from the flags (all three are required by Bitbucket). */
export function identity(args: string[], flags: Record<string, unknown>) {
  for (const f of ['key', 'environment', 'sequence'])
    if (flags[f] === undefined)
      throw new UsageError(`--${f} is required: key, environment and sequence name one deployment`);
  return {
    commit: fullCommitId(args[0]),
    key: String(flags.key),
    environment: String(flags.environment),
    sequence: positiveInt(flags.sequence, '--sequence', 1),
  };
}

/** The deployments resource of a commit. */
export function deploymentsPath(repo: RepoContext, commit: string): string {
  return `${repoPath(repo.project, repo.slug)}/commits/${segment('commit', commit)}/deployments`;
}

/** The query naming one deployment. */
export const identityQuery = (o: { key: string; environment: string; sequence: number }) => ({
  key: o.key,
  environmentKey: o.environment,
  deploymentSequenceNumber: o.sequence,
});

/** The deployment shape bbdc prints. */
export function toDeployment(d: RestDeployment, commit: string): Deployment {
  return {
    commit: d.fromCommit?.id ?? commit,
    key: d.key,
    sequence: d.deploymentSequenceNumber,
    state: d.state as Deployment['state'],
    environment: d.environment.key,
    ...(d.environment.type && { environmentType: d.environment.type }),
    ...(d.displayName && { displayName: d.displayName }),
    ...(d.description && { description: d.description }),
    ...(d.url && { url: d.url }),
  };
}
