// A pull request needs its source branch on the server: a branch only pushed nowhere (gh's "unpushed branch") is
// found before anything is created, and `--push` pushes it first with the git command bbdc names.
import { RealmforgeError, UsageError } from '../../../core/errors.ts';
import type { BitbucketClient } from '../../api/client.ts';
import { findBranch } from '../../api/refs.ts';
import type { CommandDeps, RepoContext } from '../../command.ts';
import { remoteRepos } from '../../config/git-context.ts';

/** The remote of this clone that points at `repo` (origin when none does), as `git push` takes it. */
async function remoteFor(deps: CommandDeps, repo: RepoContext): Promise<string> {
  const remotes = await remoteRepos(deps.git, deps.cwd, deps.config()).catch(() => []);
  const same = remotes.find(
    (r) => r.project.toLowerCase() === repo.project.toLowerCase() && r.slug === repo.slug,
  );
  return same?.remote ?? 'origin';
}

/** Whether the server has branch `from` and, when not, the git command that would push it there. */
export async function sourceOnServer(
  deps: CommandDeps,
  client: BitbucketClient,
  repo: RepoContext,
  from: string,
): Promise<{ pushed: true } | { pushed: false; command: string[] }> {
  const [found, remote] = await Promise.all([findBranch(client, repo, from), remoteFor(deps, repo)]);
  return found ? { pushed: true } : { pushed: false, command: ['git', 'push', '-u', remote, from] };
}

/** Why the real run would stop at an unpushed source branch (empty with --push, which pushes it). */
export const notPushedReason = (from: string, repo: RepoContext, command: string[]) =>
  `branch ${from} is not on the server (${repo.project}/${repo.slug}): push it with \`${command.join(' ')}\`, or pass --push`;

/** Runs the push (`git push -u <remote> <branch>`), its progress on stderr; fails naming git's own message. */
export async function push(deps: CommandDeps, command: string[]): Promise<void> {
  deps.ui.notice(`Pushing: ${command.join(' ')}`);
  const r = await deps.git(command.slice(1), deps.cwd, {
    env: deps.env,
    onStderr: (text) => {
      if (!deps.globals.json) deps.stderr.write(text);
    },
  });
  if (r.code === 127)
    throw new UsageError('--push needs git, and git could not be started: is it installed?');
  if (r.code !== 0)
    throw new RealmforgeError('conflict', `\`${command.join(' ')}\` failed: ${r.stderr.trim()}`);
}
