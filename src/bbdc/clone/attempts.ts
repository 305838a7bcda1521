import type { CloneOutput } from '../../../generated/types/cli/output/clone.ts';
import { RealmforgeError } from '../../core/errors.ts';
import { authorization } from '../api/client.ts';
import type { CommandDeps } from '../command.ts';
import { gitFailure, headerAttemptEnv, sshAttemptEnv, sshConnectTimeout } from './git-env.ts';
import type { ClonePlan } from './prepare.ts';
import { type CloneStep, describeMethod } from './transports.ts';

type Attempt = CloneOutput['attempts'][number];

/** Asks for a username (empty for an HTTP access token) and a secret, and returns the Authorization header value. */
async function promptedAuthorization(url: string, deps: CommandDeps): Promise<string | undefined> {
  const server = new URL(url).origin;
  const username = await deps.prompt(`Username for ${server} (empty to use an HTTP access token): `, {
    secret: false,
  });
  const secret = await deps.prompt(
    username ? `Password for ${username}: ` : `HTTP access token for ${server}: `,
    {
      secret: true,
    },
  );
  deps.logger.redact(secret);
  if (!secret) return undefined;
  return authorization(username ? { username, password: secret } : { token: secret });
}

/** The environment git runs with for one attempt, or undefined when the user typed no credentials. */
async function attemptEnv(step: CloneStep, plan: ClonePlan, deps: CommandDeps) {
  if (step.method === 'ssh') return sshAttemptEnv(deps.env, sshConnectTimeout(deps.env));
  const header =
    step.method === 'https-token'
      ? authorization(plan.repo.host.credentials)
      : await promptedAuthorization(step.url, deps);
  return header === undefined ? undefined : headerAttemptEnv(deps.env, step.url, header);
}

/** The error when every attempt failed (or none could be made), with each attempt's reason as a detail. */
function cloneFailed(plan: ClonePlan, attempts: Attempt[]): RealmforgeError {
  const host = plan.repo.host.url;
  const tried = attempts.length
    ? `${attempts.map((a) => describeMethod(a.method)).join(', then ')} failed`
    : '';
  const advice =
    plan.transport === 'ssh'
      ? 'check that your SSH key is added to your Bitbucket account and loaded (ssh-add -l), or use --https'
      : plan.canPrompt
        ? `check your credentials: run \`bbdc auth login ${host}\` to store a token, or add an SSH key to your Bitbucket account`
        : `bbdc asks for credentials only on a terminal, and this is not one; run \`bbdc auth login ${host}\` (or set BBDC_TOKEN) to clone over HTTPS with a token, or add an SSH key to your Bitbucket account`;
  return new RealmforgeError('auth', `could not clone ${plan.name}${tried ? `: ${tried}` : ''}; ${advice}`, {
    details: attempts.map((a) => `${a.method} ${a.url}: ${a.error}`),
  });
}

/** Adds the fork origin as remote `upstream` and fetches it with the same authentication as the clone. */
async function addUpstream(
  url: string,
  env: Record<string, string | undefined>,
  plan: ClonePlan,
  deps: CommandDeps,
) {
  const res = await deps.git(['remote', 'add', '-f', 'upstream', url], plan.directory, { env });
  if (res.code !== 0) {
    deps.ui.notice(
      `warning: remote "upstream" (${url}) could not be added or fetched: ${gitFailure(res.stderr)}`,
    );
  }
}

/** Runs git clone with each step in turn until one succeeds; never lets git prompt on its own. */
export async function runClone(plan: ClonePlan, gitArgs: string[], deps: CommandDeps): Promise<CloneOutput> {
  const attempts: Attempt[] = [];
  for (const step of plan.steps) {
    const extra = await attemptEnv(step, plan, deps);
    if (!extra) {
      attempts.push({ method: step.method, url: step.url, ok: false, error: 'no credentials were typed' });
      continue;
    }
    deps.ui.notice(`Cloning ${plan.name} into ${plan.directory} over ${describeMethod(step.method)}...`);
    const env = { ...deps.env, ...extra };
    // On a terminal, people see git's own progress; --json and pipes get only bbdc's lines.
    const live = deps.ui.tty && !deps.globals.json;
    const args = ['clone', ...(live ? ['--progress'] : []), ...gitArgs, '--', step.url, plan.directory];
    const res = await deps.git(args, deps.cwd, {
      env,
      ...(live && { onStderr: (text: string) => deps.stderr.write(deps.logger.scrub(text)) }),
    });
    if (res.code !== 0) {
      const error = deps.logger.scrub(gitFailure(res.stderr));
      deps.ui.notice(`${describeMethod(step.method)} failed: ${error}`);
      attempts.push({ method: step.method, url: step.url, ok: false, error });
      continue;
    }
    attempts.push({ method: step.method, url: step.url, ok: true });
    const method = step.method === 'ssh' ? 'ssh' : 'https';
    const upstream =
      plan.upstream && (method === 'ssh' ? (plan.upstream.ssh ?? plan.upstream.https) : plan.upstream.https);
    if (upstream) await addUpstream(upstream, env, plan, deps);
    return {
      repository: plan.name,
      directory: plan.directory,
      method,
      url: step.url,
      attempts,
      ...(upstream && { upstream }),
    };
  }
  throw cloneFailed(plan, attempts);
}
