import type { RepoSyncRunOutput } from '../../../../generated/types/cli/output/repo-sync-run.ts';
import { UsageError } from '../../../core/errors.ts';
import { pluginRepoPath } from '../../api/path.ts';
import { findBranch } from '../../api/refs.ts';
import { type CommandDeps, defineCommand } from '../../command.ts';
import { apply, type Change, planOf } from '../../output/change.ts';

type Action = RepoSyncRunOutput['action'];
type Options = { branch: string; action: Action };

async function prepare(o: Options, deps: CommandDeps) {
  const repo = await deps.repo();
  const client = await deps.client(repo.host);
  const branch = await findBranch(client, repo, o.branch);
  const change: Change = {
    client,
    intent: `bbdc repo sync run ${o.branch} --action ${o.action.toLowerCase()}`,
    host: repo.host.url,
    target: { type: 'branch', id: `${repo.project}/${repo.slug}:${o.branch}` },
    request: {
      method: 'POST',
      path: `${pluginRepoPath('sync', repo.project, repo.slug)}/synchronize`,
      body: { refId: `refs/heads/${o.branch}`, action: o.action },
    },
    description: `${o.action.toLowerCase()} ${o.branch} of ${repo.project}/${repo.slug} with its origin`,
    predicted: o.action === 'DISCARD' ? 'delete' : 'update',
    reasons: o.action === 'DISCARD' ? [`the fork's own commits on ${o.branch} are dropped`] : [],
    blocking: branch ? [] : [`branch ${o.branch} does not exist in ${repo.project}/${repo.slug}`],
  };
  return { change, repository: `${repo.project}/${repo.slug}` };
}

/** `bbdc repo sync run <branch> --action merge|rebase|discard`: bb's `repo sync`, one branch of a fork on demand. */
export const command = defineCommand<Options, RepoSyncRunOutput>({
  name: 'repo sync run',
  summary: 'Bring a branch of a fork in line with its origin now (merge, rebase or discard)',
  description:
    "The server does it (POST /rest/sync/latest/.../synchronize). `discard` drops the fork's own commits on the branch. Needs REPO_WRITE on the fork.",
  args: [{ name: 'branch', required: true, description: 'Branch of the fork' }],
  flags: {
    action: {
      type: 'string',
      value: 'ACTION',
      choices: ['merge', 'rebase', 'discard'],
      default: 'merge',
      description: "How: merge origin's commits in, rebase the fork's onto them, or discard the fork's",
    },
  },
  outputSchema: 'repo-sync-run',
  effect: 'mutating',
  needs: { permission: 'REPO_WRITE', action: 'syncing a fork branch' },
  examples: ['bbdc repo sync run main -R ~alice/api', 'bbdc repo sync run main --action rebase --dry-run'],
  parse: ({ args, flags }) => {
    const action = String(flags.action ?? 'merge').toUpperCase();
    if (!['MERGE', 'REBASE', 'DISCARD'].includes(action))
      throw new UsageError(`--action "${flags.action}" must be merge, rebase or discard`);
    return { branch: args[0].replace(/^refs\/heads\//, ''), action: action as Action };
  },
  plan: async (o, deps) => planOf((await prepare(o, deps)).change),
  async run(o, deps) {
    const { change, repository } = await prepare(o, deps);
    const res = await apply<{ state?: string } | undefined>(change);
    // 204: in sync now; 200: the action ran but the branch is still not in sync (its state says how).
    const inSync = res?.status !== 200;
    return {
      repository,
      branch: o.branch,
      action: o.action,
      inSync,
      ...(!inSync && res?.data?.state && { state: res.data.state }),
    };
  },
  human(d, ui) {
    ui.line(
      `${d.action.toLowerCase()} of ${d.repository} ${d.branch} done: ${d.inSync ? 'in sync with its origin' : `still not in sync${d.state ? ` (${d.state})` : ''}`}`,
    );
  },
});
