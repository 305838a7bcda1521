import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { AuthSetupGitOutput } from '../../../../generated/types/cli/output/auth-setup-git.ts';
import { RealmforgeError, UsageError } from '../../../core/errors.ts';
import { credentialScope } from '../../clone/credential-protocol.ts';
import { type CommandDeps, defineCommand } from '../../command.ts';
import { findHost, normalizeHostUrl } from '../../config/hosts.ts';
import { makePlan } from '../../output/plan.ts';

type Options = { host?: string };

/**
 * The helper value git runs through the shell: `bbdc` found on PATH, so an upgrade (a new Node, a new bbdc in
 * another directory) keeps it working, where the absolute paths of node and of bbdc's script would break silently.
 */
export const helper = '!bbdc auth git-credential';

/** Where git's shell would find `bbdc` on the PATH of this run; undefined when it would not. */
function bbdcOnPath(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const windows = process.platform === 'win32';
  const names = windows ? ['bbdc.cmd', 'bbdc.exe', 'bbdc'] : ['bbdc'];
  for (const dir of (env.PATH ?? env.Path ?? '').split(delimiter).filter(Boolean))
    for (const name of names) {
      try {
        accessSync(join(dir, name), windows ? constants.F_OK : constants.X_OK);
        return join(dir, name);
      } catch {
        // not here
      }
    }
  return undefined;
}

const notOnPath =
  'git would run `bbdc auth git-credential`, but no bbdc is on your PATH: install it (`npm install -g @realmforge/bbdc`, or `npm link` in a checkout) or put its directory on PATH, then run `bbdc auth setup-git` again';

function targets(o: Options, deps: CommandDeps): { url: string; key: string }[] {
  const config = deps.config();
  const hosts = o.host ? [findHost(config, o.host)?.host] : (config.hosts ?? []);
  if (o.host && !hosts[0])
    throw new UsageError(`${o.host} is not configured; run \`bbdc auth login ${o.host}\` first`);
  if (!hosts.length) throw new UsageError('no server is configured; run `bbdc auth login <host>` first');
  return hosts.map((h) => ({ url: h!.url, key: `credential.${credentialScope(h!.url)}.helper` }));
}

/** `git config --global ...` with the run's environment (HOME, GIT_CONFIG_GLOBAL), never another one. */
const gitConfig = (deps: CommandDeps, args: string[]) =>
  deps.git(['config', '--global', ...args], deps.cwd, { env: deps.env });

/** `bbdc auth setup-git`: registers bbdc as git's credential helper for the configured servers (as gh does). */
export const command = defineCommand<Options, AuthSetupGitOutput>({
  name: 'auth setup-git',
  summary: 'Let git fetch and push over HTTPS with the stored token (bbdc becomes its credential helper)',
  description:
    "Writes credential.<server>.helper to your global git config: an empty value (so other helpers do not answer for the server) and then `!bbdc auth git-credential`, which git's shell finds on PATH (so upgrading Node or bbdc keeps it working; bbdc must be on PATH). The token is never written into git's config, a remote URL or argv; git asks bbdc for it on each fetch and push.",
  args: [],
  flags: {
    host: { type: 'string', value: 'URL', description: 'Only this configured server (default: all)' },
  },
  outputSchema: 'auth-setup-git',
  effect: 'mutating',
  examples: ['bbdc auth setup-git', 'bbdc auth setup-git --host bitbucket.example.com'],
  parse: ({ flags }) => (flags.host ? { host: normalizeHostUrl(String(flags.host)) } : {}),
  async plan(o, deps) {
    const list = targets(o, deps);
    const found = bbdcOnPath(deps.env);
    const current = await Promise.all(list.map((t) => gitConfig(deps, ['--get-all', t.key])));
    const done = current.every((r) => r.stdout.replace(/\n$/, '').split('\n').join('|') === `|${helper}`);
    return makePlan({
      intent: `bbdc auth setup-git${o.host ? ` --host ${o.host}` : ''}`,
      target: { type: 'git-config', id: list.map((t) => t.key).join(', ') },
      action: {
        type: 'file',
        description: `set ${list.map((t) => t.key).join(', ')} to "" and "${helper}" in ~/.gitconfig`,
      },
      predictedAction: !found ? 'conflict' : done ? 'no-op' : 'update',
      reasons: [
        ...list.map((t) => `${t.url}: git asks bbdc for its credentials`),
        ...(found ? [`git finds bbdc on PATH: ${found}`] : []),
      ],
      blockingReasons: found ? [] : [notOnPath],
    });
  },
  async run(o, deps) {
    const list = targets(o, deps);
    if (!bbdcOnPath(deps.env)) throw new UsageError(notOnPath);
    for (const t of list) {
      for (const args of [
        ['--replace-all', t.key, ''],
        ['--add', t.key, helper],
      ]) {
        const r = await gitConfig(deps, args);
        if (r.code !== 0)
          throw new RealmforgeError(
            'internal',
            `git config --global ${args.join(' ')} failed: ${r.stderr.trim()}`,
          );
      }
    }
    return { helper, hosts: list };
  },
  human(d, ui) {
    for (const h of d.hosts) ui.line(`git now asks bbdc for the credentials of ${h.url} (${h.key})`);
  },
});
