// `repo hook-script list|set|remove` (bb's): which of the server's hook scripts run on a repository, and on which
// triggers. The scripts themselves are uploaded by a system admin; a repository admin configures them.
import type {
  RepoHookScript,
  RepoHookScriptsOutput,
} from '../../../../../generated/types/cli/output/repo-hook-scripts.ts';
import { UsageError } from '../../../../core/errors.ts';
import { collectPages } from '../../../api/paging.ts';
import { scopedNeeds } from '../../../api/permission-check.ts';
import { repoPath } from '../../../api/repositories.ts';
import { type CommandDeps, defineCommand } from '../../../command.ts';
import { apply, planOf } from '../../../output/change.ts';
import type { Ui } from '../../../output/ui.ts';

type RestHookScriptConfig = {
  script?: { id?: number; name?: string; type?: 'PRE' | 'POST'; description?: string };
  triggerIds?: string[];
};

const scriptArg = {
  name: 'script',
  required: true,
  description: 'Hook script id (see bbdc repo hook-script list)',
};

function parseScriptId(value: string | undefined): number {
  if (!/^\d{1,18}$/.test(String(value ?? '')))
    throw new UsageError(`hook script id "${value}" must be a number (see bbdc repo hook-script list)`);
  return Number(value);
}

const toScript = (c: RestHookScriptConfig): RepoHookScript => ({
  id: c.script?.id ?? 0,
  name: c.script?.name ?? '',
  ...(c.script?.type && { type: c.script.type }),
  ...(c.script?.description && { description: c.script.description }),
  triggers: [...(c.triggerIds ?? [])].sort(),
});

async function configured(deps: CommandDeps) {
  const repo = await deps.repo();
  const client = await deps.client(repo.host);
  const base = `${repoPath(repo.project, repo.slug)}/hook-scripts`;
  const { values } = await collectPages<RestHookScriptConfig>(client, base, {}, undefined);
  return { repo, client, base, scripts: values.map(toScript).sort((a, b) => a.id - b.id) };
}

function print(d: RepoHookScriptsOutput, ui: Ui) {
  if (!d.scripts.length) ui.notice(`${d.repository} runs no hook scripts.`);
  ui.table(
    ['id', 'name', 'type', 'triggers'],
    d.scripts.map((s) => [String(s.id), s.name, s.type ?? '', s.triggers.join(',')]),
  );
}

export const list = defineCommand<Record<string, never>, RepoHookScriptsOutput>({
  name: 'repo hook-script list',
  summary: 'List the hook scripts a repository runs, with their triggers',
  description: 'Needs REPO_ADMIN.',
  args: [],
  flags: {},
  outputSchema: 'repo-hook-scripts',
  effect: 'safe',
  examples: ['bbdc repo hook-script list -R PROJ/api'],
  parse: () => ({}),
  async run(_o, deps) {
    const c = await configured(deps);
    return { repository: `${c.repo.project}/${c.repo.slug}`, scripts: c.scripts };
  },
  human: print,
});

type ChangeOptions = { script: number; triggers: string[] };

/** The set or remove command. */
function change(verb: 'set' | 'remove') {
  const prepare = async (o: ChangeOptions, deps: CommandDeps) => {
    const c = await configured(deps);
    const now = c.scripts.find((s) => s.id === o.script);
    const same = verb === 'set' ? now?.triggers.join() === o.triggers.join() : !now;
    const path = `${c.base}/${o.script}`;
    return {
      c,
      now,
      change: {
        client: c.client,
        intent: `bbdc repo hook-script ${verb} ${o.script}`,
        host: c.repo.host.url,
        target: { type: 'repository', id: `${c.repo.project}/${c.repo.slug}` },
        request:
          verb === 'set'
            ? { method: 'PUT', path, body: { triggerIds: o.triggers } }
            : { method: 'DELETE', path },
        description:
          verb === 'set'
            ? `run hook script ${o.script} on ${o.triggers.join(', ')}`
            : `stop running hook script ${o.script}`,
        predicted: same ? ('no-op' as const) : verb === 'set' ? ('update' as const) : ('delete' as const),
        reasons: [
          now ? `it runs on ${now.triggers.join(', ')}` : `hook script ${o.script} is not configured here`,
        ],
      },
    };
  };
  return defineCommand<ChangeOptions, RepoHookScriptsOutput>({
    name: `repo hook-script ${verb}`,
    summary:
      verb === 'set'
        ? 'Run a hook script on a repository, on the given triggers'
        : 'Stop running a hook script on a repository',
    description: 'Needs REPO_ADMIN.',
    args: [scriptArg],
    flags:
      verb === 'set'
        ? {
            triggers: {
              type: 'string',
              value: 'IDS',
              description: 'Comma-separated trigger ids, e.g. repo-push,pr-merge (replaces the old ones)',
            },
          }
        : {},
    outputSchema: 'repo-hook-scripts',
    effect: 'mutating',
    needs: scopedNeeds('REPO_ADMIN', 'configuring hook scripts'),
    examples: [
      verb === 'set'
        ? 'bbdc repo hook-script set 3 --triggers repo-push -R PROJ/api'
        : 'bbdc repo hook-script remove 3 -R PROJ/api',
    ],
    parse: ({ args, flags }) => {
      const triggers = [
        ...new Set(
          String(flags.triggers ?? '')
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean),
        ),
      ].sort();
      if (verb === 'set' && !triggers.length)
        throw new UsageError('--triggers is required: the trigger ids that run the script, e.g. repo-push');
      return { script: parseScriptId(args[0]), triggers };
    },
    plan: async (o, deps) => planOf((await prepare(o, deps)).change),
    async run(o, deps) {
      const p = await prepare(o, deps);
      const res = await apply<RestHookScriptConfig>(p.change);
      const others = p.c.scripts.filter((s) => s.id !== o.script);
      const changed =
        verb === 'set' ? [res?.data ? toScript(res.data) : { ...p.now!, triggers: o.triggers }] : [];
      return {
        repository: `${p.c.repo.project}/${p.c.repo.slug}`,
        scripts: [...others, ...changed].sort((a, b) => a.id - b.id),
      };
    },
    human: print,
  });
}

export const set = change('set');
export const remove = change('remove');
