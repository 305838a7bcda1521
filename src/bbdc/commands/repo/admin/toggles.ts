// Repository switches that are one request each: watch/unwatch, archive/unarchive, fork sync enable/disable.
// Each is planned from a read of the current state and sends nothing when it is already as asked.
import type { RepoToggleOutput } from '../../../../../generated/types/cli/output/repo-toggle.ts';
import type { scopedNeeds } from '../../../api/permission-check.ts';
import { type RestRepository, repoPath } from '../../../api/repositories.ts';
import { type CommandDeps, defineCommand } from '../../../command.ts';
import { apply, type Change, planOf } from '../../../output/change.ts';

type Toggle = {
  name: string;
  summary: string;
  description?: string;
  setting: RepoToggleOutput['setting'];
  value: boolean;
  /** What the server checks (watching needs only read access, so no check). */
  needs?: ReturnType<typeof scopedNeeds>;
  /** Reads the current value (undefined when the server cannot tell) and builds the request. */
  read(
    deps: CommandDeps,
    base: string,
    syncBase: string,
  ): Promise<{ current?: boolean; request: Change['request'] }>;
};

/** A toggle command from its spec. */
export function toggleCommand(t: Toggle) {
  async function prepare(deps: CommandDeps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const base = repoPath(repo.project, repo.slug);
    const syncBase = base.replace('/rest/api/latest/', '/rest/sync/latest/');
    const { current, request } = await t.read({ ...deps, client: async () => client }, base, syncBase);
    return {
      repository: `${repo.project}/${repo.slug}`,
      change: {
        client,
        intent: `bbdc ${t.name}`,
        host: repo.host.url,
        target: { type: 'repository', id: `${repo.project}/${repo.slug}` },
        request,
        description: `${t.name.split(' ').at(-1)} ${repo.project}/${repo.slug}`,
        predicted: current === t.value ? ('no-op' as const) : ('update' as const),
        reasons: current === undefined ? [] : [`${t.setting} is ${current ? 'on' : 'off'}`],
      } satisfies Change,
    };
  }
  return defineCommand<Record<string, never>, RepoToggleOutput>({
    name: t.name,
    summary: t.summary,
    ...(t.description && { description: t.description }),
    args: [],
    flags: {},
    outputSchema: 'repo-toggle',
    effect: 'mutating',
    ...(t.needs && { needs: t.needs }),
    examples: [`bbdc ${t.name} -R PROJ/api`],
    parse: () => ({}),
    plan: async (_o, deps) => planOf((await prepare(deps)).change),
    async run(_o, deps) {
      const p = await prepare(deps);
      const res = await apply(p.change);
      return { repository: p.repository, setting: t.setting, value: t.value, changed: res !== undefined };
    },
    human(d, ui) {
      const word = {
        watching: ['watching', 'not watching'],
        archived: ['archived', 'not archived'],
        'fork-sync': ['syncing with its origin', 'not syncing with its origin'],
      }[d.setting];
      ui.line(`${d.repository} is ${d.value ? word[0] : word[1]}${d.changed ? '' : ' (already)'}`);
    },
  });
}

/** Reads the repository record. */
export async function readRepo(deps: CommandDeps, base: string): Promise<RestRepository> {
  return (await deps.client()).get<RestRepository>(base);
}
