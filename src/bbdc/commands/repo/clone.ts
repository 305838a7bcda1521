import type { CloneOutput } from '../../../../generated/types/cli/output/clone.ts';
import { UsageError } from '../../../core/errors.ts';
import { runClone } from '../../clone/attempts.ts';
import { sshConnectTimeout } from '../../clone/git-env.ts';
import { type CloneOptions, type ClonePlan, prepareClone } from '../../clone/prepare.ts';
import { describeMethod } from '../../clone/transports.ts';
import { defineCommand, type ParsedInput } from '../../command.ts';
import { makePlan } from '../../output/plan.ts';

function parse({ args, flags, passthrough }: ParsedInput): CloneOptions {
  if (flags.ssh && flags.https)
    throw new UsageError('--ssh and --https each force one transport; pass only one');
  return {
    repo: args[0],
    ...(args[1] !== undefined && { directory: args[1] }),
    transport: flags.ssh ? 'ssh' : flags.https ? 'https' : 'auto',
    gitArgs: passthrough ?? [],
  };
}

function stepReasons(plan: ClonePlan, gitArgs: string[], timeout: number): string[] {
  const reasons = plan.steps.map((s, i) => {
    const how =
      s.method === 'ssh'
        ? `BatchMode=yes, ConnectTimeout=${timeout}s`
        : s.method === 'https-token'
          ? 'Authorization header through GIT_CONFIG_COUNT/KEY/VALUE, not in the URL'
          : 'asks for a username and token or password on this terminal';
    return `attempt ${i + 1}: ${describeMethod(s.method)}: ${s.url} (${how})`;
  });
  if (!plan.canPrompt && plan.transport !== 'ssh') reasons.push('no prompt: not a terminal');
  reasons.push(`directory: ${plan.directory}`);
  if (gitArgs.length) reasons.push(`git clone flags: ${gitArgs.join(' ')}`);
  if (plan.upstream) {
    const ssh = plan.upstream.ssh ? ` (${plan.upstream.ssh} after an ssh clone)` : '';
    reasons.push(`fork: remote "upstream" would be ${plan.upstream.https}${ssh}`);
  }
  return reasons;
}

/** `bbdc repo clone <repository> [directory]`: clones over ssh, else HTTPS with the stored token, else a prompt. */
export const command = defineCommand<CloneOptions, CloneOutput>({
  name: 'repo clone',
  summary: 'Clone a repository, over ssh or HTTPS with your stored token',
  description: [
    'Tries ssh first (BatchMode, so a missing or locked key fails within BBDC_SSH_CONNECT_TIMEOUT seconds, default 5),',
    'then HTTPS with the stored token, passed to git as an Authorization header through GIT_CONFIG_COUNT/KEY/VALUE',
    '(never in the remote URL, the command line or .git/config), then, on a terminal only, asks for credentials.',
    'A fork gets the repository it was forked from as remote "upstream". Flags after -- go to git clone.',
  ].join('\n'),
  args: [
    {
      name: 'repository',
      required: true,
      description: 'PROJECT/slug, ~user/slug, HOST/PROJECT/slug or a clone/web URL',
    },
    { name: 'directory', required: false, description: 'Where to clone (default: the repository slug)' },
  ],
  flags: {
    ssh: { type: 'boolean', description: 'Clone over ssh only' },
    https: { type: 'boolean', description: 'Clone over HTTPS only (stored token, then a prompt)' },
  },
  passthrough: 'git clone flags',
  outputSchema: 'clone',
  effect: 'mutating',
  examples: [
    'bbdc repo clone PROJ/api',
    'bbdc repo clone ~alice/dotfiles ~/src/dotfiles --https',
    'bbdc repo clone PROJ/api -- --depth 1 --branch release/2.x',
    'bbdc repo clone PROJ/api --dry-run',
  ],
  parse,
  async plan(o, deps) {
    const plan = await prepareClone(o, deps, false);
    const blocking = plan.problems.map((p) => p.message);
    if (!plan.steps.length && !blocking.length) blocking.push('no transport can be tried: see the reasons');
    const first = plan.steps[0];
    return makePlan({
      intent: `bbdc repo clone ${plan.name}`,
      target: { type: 'repository', id: plan.name, host: plan.repo.host.url },
      action: {
        type: 'file',
        description: `clone ${plan.name} into ${plan.directory}${first ? ` from ${first.url} over ${describeMethod(first.method)}` : ''}`,
      },
      predictedAction: blocking.length ? 'conflict' : 'create',
      reasons: stepReasons(plan, o.gitArgs, sshConnectTimeout(deps.env)),
      blockingReasons: blocking,
    });
  },
  async run(o, deps) {
    sshConnectTimeout(deps.env);
    const plan = await prepareClone(o, deps, true);
    if (plan.problems.length) throw plan.problems[0];
    return runClone(plan, o.gitArgs, deps);
  },
  human(d, ui) {
    ui.line(`Cloned ${d.repository} into ${d.directory} over ${d.method} (${d.url}).`);
    if (d.upstream) ui.line(`Added remote "upstream": ${d.upstream}`);
  },
});
