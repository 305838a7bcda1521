import type { PrCheckoutOutput } from '../../../../generated/types/cli/output/pr-checkout.ts';
import { RealmforgeError, UsageError } from '../../../core/errors.ts';
import type { BitbucketClient } from '../../api/client.ts';
import { authorization } from '../../api/client.ts';
import type { Id } from '../../api/ids.ts';
import { fetchPullRequest, parsePrId, type RestPullRequest } from '../../api/pull-requests.ts';
import { type RestRepository, repoPath } from '../../api/repositories.ts';
import { type CheckoutRemote, checkoutPlan } from '../../checkout/plan.ts';
import { gitFailure, headerAttemptEnv } from '../../clone/git-env.ts';
import type { CommandDeps } from '../../command.ts';
import { defineCommand } from '../../command.ts';
import { remoteRepos } from '../../config/git-context.ts';
import { makePlan } from '../../output/plan.ts';
import { prContext, prIdArg } from './pr-context.ts';

type Options = { id: Id; branch?: string; force: boolean };

async function localRemote(deps: CommandDeps, project: string, slug: string): Promise<CheckoutRemote> {
  const remotes = await remoteRepos(deps.git, deps.cwd, deps.config());
  const match = remotes.find((r) => r.project.toUpperCase() === project.toUpperCase() && r.slug === slug);
  if (!match)
    throw new UsageError(
      `pr checkout works in a clone of ${project}/${slug}, and no git remote here points at it; cd into one (or clone it with \`bbdc repo clone ${project}/${slug}\`)`,
    );
  return { name: match.remote, url: match.url };
}

async function git(deps: CommandDeps, args: string[], env?: Record<string, string>) {
  const res = await deps.git(args, deps.cwd, env && { env: { ...deps.env, ...env } });
  if (res.code !== 0)
    throw new RealmforgeError(
      'internal',
      `git ${args[0]} failed: ${gitFailure(res.stderr)}; your working tree is unchanged`,
    );
  return res.stdout.trim();
}

/** The fork's clone URL in the same scheme as the local remote (ssh or http), for a fork's pull request. */
async function forkUrl(client: BitbucketClient, pr: RestPullRequest, remote: CheckoutRemote) {
  const from = pr.fromRef.repository;
  if (!from) return undefined;
  const fork = await client.get<RestRepository>(repoPath(from.project.key, from.slug));
  const want = /^https?:/.test(remote.url) ? 'http' : 'ssh';
  return fork.links?.clone?.find((l) => l.name === want)?.href;
}

async function prepare(o: Options, deps: CommandDeps) {
  const { repo, client } = await prContext(deps);
  const pr = await fetchPullRequest(client, repo, o.id);
  const remote = await localRemote(deps, repo.project, repo.slug);
  const plan = checkoutPlan(pr, remote, { branch: o.branch });
  const url = plan.fork ? await forkUrl(client, pr, remote) : undefined;
  return {
    repo,
    pr,
    remote,
    plan: url ? checkoutPlan(pr, remote, { branch: o.branch, forkUrl: url }) : plan,
  };
}

/** `bbdc pr checkout <id>`: the pull request's source as a local branch that tracks it, in the current clone. */
export const command = defineCommand<Options, PrCheckoutOutput>({
  name: 'pr checkout',
  summary: "Check out a pull request's source branch locally, tracking it",
  description:
    'Run it inside a clone of the repository. Over HTTPS the token goes to git in the environment for this fetch only; it is never written into the remote URL or git config. An existing local branch is fast-forwarded; one that has diverged is refused unless --force resets it.',
  args: [prIdArg],
  flags: {
    branch: {
      type: 'string',
      shortFlag: 'b',
      value: 'NAME',
      description: 'Local branch name (default: the source branch, or pr/<id> for a fork)',
    },
    force: {
      type: 'boolean',
      description: 'Reset an existing local branch that has diverged from the pull request',
    },
  },
  outputSchema: 'pr-checkout',
  effect: 'mutating',
  examples: ['bbdc pr checkout 42', 'bbdc pr checkout 42 --branch review-42'],
  parse: ({ args, flags }) => ({
    id: parsePrId(args[0]),
    branch: flags.branch as string | undefined,
    force: flags.force === true,
  }),
  async plan(o, deps) {
    const { repo, plan } = await prepare(o, deps);
    const exists =
      (await deps.git(['rev-parse', '--verify', '--quiet', `refs/heads/${plan.branch}`], deps.cwd)).code ===
      0;
    return makePlan({
      intent: `bbdc pr checkout ${o.id}`,
      target: { type: 'branch', id: plan.branch, host: repo.host.url },
      action: {
        type: 'file',
        description: `git fetch ${plan.fetch.remote} ${plan.fetch.refspec}, then ${exists ? 'update' : 'create'} branch ${plan.branch} tracking ${plan.upstream.remote} ${plan.upstream.merge}`,
      },
      predictedAction: exists ? 'update' : 'create',
      reasons: [`pull request #${o.id} comes from ${plan.fork ? 'a fork' : 'this repository'}`],
      blockingReasons: [],
    });
  },
  async run(o, deps) {
    const { repo, remote, plan } = await prepare(o, deps);
    const header = /^https?:/.test(remote.url) ? authorization(repo.host.credentials) : undefined;
    const env = header ? headerAttemptEnv(deps.env, remote.url, header) : { GIT_TERMINAL_PROMPT: '0' };
    await git(deps, ['fetch', '--quiet', plan.fetch.remote, plan.fetch.refspec], env);
    const commit = await git(deps, ['rev-parse', plan.fetched]);
    const exists =
      (await deps.git(['rev-parse', '--verify', '--quiet', `refs/heads/${plan.branch}`], deps.cwd)).code ===
      0;
    let action: PrCheckoutOutput['action'] = 'created';
    if (!exists) {
      await git(deps, ['checkout', '--quiet', '-b', plan.branch, commit]);
    } else {
      await git(deps, ['checkout', '--quiet', plan.branch]);
      const head = await git(deps, ['rev-parse', 'HEAD']);
      const ff =
        head === commit ||
        (await deps.git(['merge-base', '--is-ancestor', head, commit], deps.cwd)).code === 0;
      if (!ff && !o.force)
        throw new RealmforgeError(
          'conflict',
          `local branch ${plan.branch} has diverged from pull request #${o.id}; rerun with --force to reset it, or --branch to use another name`,
        );
      await git(deps, ['reset', '--quiet', ff ? '--keep' : '--hard', commit]);
      action = head === commit ? 'unchanged' : ff ? 'fast-forwarded' : 'reset';
    }
    await git(deps, ['config', `branch.${plan.branch}.remote`, plan.upstream.remote]);
    await git(deps, ['config', `branch.${plan.branch}.merge`, plan.upstream.merge]);
    return {
      pullRequest: o.id,
      repository: `${repo.project}/${repo.slug}`,
      branch: plan.branch,
      commit,
      action,
      upstream: `${plan.upstream.remote} ${plan.upstream.merge}`,
      fork: plan.fork,
    };
  },
  human(d, ui) {
    const what = {
      created: 'Switched to a new branch',
      'fast-forwarded': 'Fast-forwarded',
      reset: 'Reset',
      unchanged: 'Already up to date:',
    }[d.action];
    ui.line(
      `${what} ${d.branch} at ${d.commit.slice(0, 11)} (pull request #${d.pullRequest}, tracking ${d.upstream})`,
    );
  },
});
