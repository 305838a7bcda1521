import type { RepoSettingsAutoDeclineDeleteOutput as Deleted } from '../../../../../generated/types/cli/output/repo-settings-auto-decline-delete.ts';
import type { RepoSettingsAutoDeclineGetOutput as Effective } from '../../../../../generated/types/cli/output/repo-settings-auto-decline-get.ts';
import { UsageError } from '../../../../core/errors.ts';
import type { BitbucketClient } from '../../../api/client.ts';
import { identify } from '../../../api/identity.ts';
import { scopedNeeds } from '../../../api/permission-check.ts';
import { repoPath } from '../../../api/repositories.ts';
import { type CommandDeps, defineCommand, type FlagSpec } from '../../../command.ts';
import { makePlan } from '../../../output/plan.ts';
import type { Ui } from '../../../output/ui.ts';

/** The two on/off repository settings that fall back to the project's: auto-merge and auto-decline. */
export type ToggleKind = 'auto-merge' | 'auto-decline';

type RestToggle = { enabled: boolean; inactivityWeeks?: number; scope?: { type?: string } };
type SetOptions = { enabled: boolean; weeks?: number };

const what: Record<ToggleKind, string> = {
  'auto-merge': 'Pull requests may be set to merge by themselves once every check passes',
  'auto-decline': 'Pull requests without activity for some weeks are declined',
};

const settingPath = (kind: ToggleKind, project: string, slug: string) =>
  `${repoPath(project, slug)}/settings/${kind}`;

function toEffective(kind: ToggleKind, r: RestToggle, repository: string): Effective {
  const out = {
    repository,
    enabled: r.enabled,
    source: (r.scope?.type ?? 'GLOBAL').toLowerCase(),
  } as Effective;
  if (kind === 'auto-decline') out.inactivityWeeks = r.inactivityWeeks ?? 4;
  return out;
}

async function read(kind: ToggleKind, deps: CommandDeps) {
  const repo = await deps.repo();
  const client: BitbucketClient = await deps.client(repo.host);
  const id = `${repo.project}/${repo.slug}`;
  const path = settingPath(kind, repo.project, repo.slug);
  return { repo, client, id, path, current: toEffective(kind, await client.get<RestToggle>(path), id) };
}

function describe(d: Omit<Effective, 'repository'>): string {
  const weeks =
    d.enabled && d.inactivityWeeks !== undefined
      ? ` after ${d.inactivityWeeks} week${d.inactivityWeeks === 1 ? '' : 's'}`
      : '';
  return `${d.enabled ? 'on' : 'off'}${weeks} (set on the ${d.source === 'repository' ? 'repository' : d.source === 'project' ? 'project' : 'server, the default'})`;
}

function printEffective(kind: ToggleKind) {
  return (d: Effective, ui: Ui) => ui.line(`${kind} for ${d.repository}: ${describe(d)}`);
}

/** `bbdc repo settings <kind> get`. */
export function toggleGetCommand(kind: ToggleKind) {
  return defineCommand<Record<string, never>, Effective>({
    name: `repo settings ${kind} get`,
    summary: `Show the ${kind} setting of a repository`,
    description: `${what[kind]}. Shows the effective setting and whether it is set on the repository, its project or the server.`,
    args: [],
    flags: {},
    outputSchema: `repo-settings-${kind}-get`,
    effect: 'safe',
    examples: [`bbdc repo settings ${kind} get -R PROJ/api`],
    parse: () => ({}),
    run: async (_o, deps) => (await read(kind, deps)).current,
    human: printEffective(kind),
  });
}

/** `bbdc repo settings <kind> set <on|off>`; auto-decline also takes --weeks. */
export function toggleSetCommand(kind: ToggleKind) {
  const flags: Record<string, FlagSpec> =
    kind === 'auto-decline'
      ? {
          weeks: {
            type: 'string',
            value: 'N',
            choices: ['1', '2', '4', '8', '12'],
            description: 'Weeks of inactivity before declining: 1, 2, 4, 8 or 12 (default 4)',
          },
        }
      : {};
  const body = (o: SetOptions) =>
    kind === 'auto-decline' ? { enabled: o.enabled, inactivityWeeks: o.weeks ?? 4 } : { enabled: o.enabled };
  return defineCommand<SetOptions, Effective>({
    name: `repo settings ${kind} set`,
    summary: `Turn ${kind} on or off for a repository`,
    description: `${what[kind]}. Sets it on the repository, overriding the project. Needs REPO_ADMIN.`,
    args: [{ name: 'state', required: true, description: 'on or off' }],
    flags,
    outputSchema: `repo-settings-${kind}-set`,
    effect: 'mutating',
    needs: scopedNeeds('REPO_ADMIN', 'changing repository settings'),
    examples: [`bbdc repo settings ${kind} set on${kind === 'auto-decline' ? ' --weeks 8' : ''} -R PROJ/api`],
    parse: ({ args, flags: f }) => {
      if (args[0] !== 'on' && args[0] !== 'off') throw new UsageError(`state "${args[0]}" must be on or off`);
      if (args[0] === 'off' && f.weeks !== undefined) throw new UsageError('--weeks only applies with on');
      return { enabled: args[0] === 'on', weeks: f.weeks === undefined ? undefined : Number(f.weeks) };
    },
    async plan(o, deps) {
      const { repo, client, id, path, current } = await read(kind, deps);
      const { username } = await identify(client, repo.host.url);
      const wanted = body(o);
      const same =
        current.source === 'repository' &&
        current.enabled === wanted.enabled &&
        (kind !== 'auto-decline' ||
          !wanted.enabled ||
          current.inactivityWeeks === (wanted as { inactivityWeeks: number }).inactivityWeeks);
      return makePlan({
        intent: `bbdc repo settings ${kind} set ${o.enabled ? 'on' : 'off'}`,
        target: { type: `${kind}-setting`, id, host: repo.host.url },
        action: {
          type: 'http',
          description: `turn ${kind} ${o.enabled ? 'on' : 'off'} for ${id}`,
          method: 'PUT',
          path,
          body: wanted,
        },
        predictedAction: same ? 'no-op' : 'update',
        reasons: [`authenticated as ${username}`, `${kind} is ${describe(current)}`],
        blockingReasons: [],
      });
    },
    async run(o, deps) {
      const repo = await deps.repo();
      const client = await deps.client(repo.host);
      const res = await client.request<RestToggle>('PUT', settingPath(kind, repo.project, repo.slug), {
        body: body(o),
      });
      return toEffective(kind, res.data, `${repo.project}/${repo.slug}`);
    },
    human: printEffective(kind),
  });
}

/** `bbdc repo settings <kind> delete`: drops the repository's own setting so the project's applies again. */
export function toggleDeleteCommand(kind: ToggleKind) {
  return defineCommand<Record<string, never>, Deleted>({
    name: `repo settings ${kind} delete`,
    summary: `Remove the repository's own ${kind} setting`,
    description: 'Afterwards the project setting (or the server default) applies. Needs REPO_ADMIN.',
    args: [],
    flags: {},
    outputSchema: `repo-settings-${kind}-delete`,
    effect: 'mutating',
    needs: scopedNeeds('REPO_ADMIN', 'changing repository settings'),
    examples: [`bbdc repo settings ${kind} delete -R PROJ/api --dry-run`],
    parse: () => ({}),
    async plan(_o, deps) {
      const { repo, client, id, path, current } = await read(kind, deps);
      const { username } = await identify(client, repo.host.url);
      return makePlan({
        intent: `bbdc repo settings ${kind} delete`,
        target: { type: `${kind}-setting`, id, host: repo.host.url },
        action: { type: 'http', description: `remove the ${kind} setting of ${id}`, method: 'DELETE', path },
        predictedAction: current.source === 'repository' ? 'delete' : 'no-op',
        reasons: [`authenticated as ${username}`, `${kind} is ${describe(current)}`],
        blockingReasons: [],
      });
    },
    async run(_o, deps) {
      const repo = await deps.repo();
      const client = await deps.client(repo.host);
      const path = settingPath(kind, repo.project, repo.slug);
      await client.request('DELETE', path);
      const { repository: _r, ...effective } = toEffective(kind, await client.get<RestToggle>(path), '');
      return { repository: `${repo.project}/${repo.slug}`, deleted: true, effective };
    },
    human(d, ui) {
      ui.line(`Removed the ${kind} setting of ${d.repository}; now ${describe(d.effective)}.`);
    },
  });
}
