// `repo label list|add|remove`: the labels of a repository (Bitbucket lower-cases them; 3-50 characters).
import type { RepoLabelsOutput } from '../../../../../generated/types/cli/output/repo-labels.ts';
import { UsageError } from '../../../../core/errors.ts';
import { readUnpaged } from '../../../api/paging.ts';
import { segment } from '../../../api/path.ts';
import { scopedNeeds } from '../../../api/permission-check.ts';
import { repoPath } from '../../../api/repositories.ts';
import { type CommandDeps, defineCommand } from '../../../command.ts';
import { apply, planOf } from '../../../output/change.ts';

const labelArg = {
  name: 'label',
  required: true,
  description: 'Label name (3-50 characters: a-z, 0-9, - and _)',
};

function parseLabel(value: string | undefined): string {
  const label = String(value ?? '')
    .trim()
    .toLowerCase();
  if (!/^[a-z0-9][a-z0-9_-]{2,49}$/.test(label))
    throw new UsageError(
      `label "${value}" must be 3-50 characters of a-z, 0-9, - and _, starting with a letter or digit`,
    );
  return label;
}

async function current(deps: CommandDeps) {
  const repo = await deps.repo();
  const client = await deps.client(repo.host);
  const base = `${repoPath(repo.project, repo.slug)}/labels`;
  // The 9.4 document declares no start/limit here (getAllLabelsForRepository): one request, no paging parameters.
  const values = await readUnpaged<{ name: string }>(client, base);
  return { repo, client, base, labels: values.map((l) => l.name).sort() };
}

export const list = defineCommand<Record<string, never>, RepoLabelsOutput>({
  name: 'repo label list',
  summary: 'List the labels of a repository',
  args: [],
  flags: {},
  outputSchema: 'repo-labels',
  effect: 'safe',
  examples: ['bbdc repo label list -R PROJ/api'],
  parse: () => ({}),
  async run(_o, deps) {
    const c = await current(deps);
    return { repository: `${c.repo.project}/${c.repo.slug}`, labels: c.labels };
  },
  human(d, ui) {
    if (!d.labels.length) ui.notice(`${d.repository} has no labels.`);
    for (const l of d.labels) ui.line(l);
  },
});

/** The add or remove command. */
function change(verb: 'add' | 'remove') {
  const prepare = async (label: string, deps: CommandDeps) => {
    const c = await current(deps);
    const has = c.labels.includes(label);
    return {
      c,
      change: {
        client: c.client,
        intent: `bbdc repo label ${verb} ${label}`,
        host: c.repo.host.url,
        target: { type: 'repository', id: `${c.repo.project}/${c.repo.slug}` },
        request:
          verb === 'add'
            ? { method: 'POST', path: c.base, body: { name: label } }
            : { method: 'DELETE', path: `${c.base}/${segment('label', label)}` },
        description: `${verb} label ${label} ${verb === 'add' ? 'to' : 'from'} ${c.repo.project}/${c.repo.slug}`,
        predicted:
          (verb === 'add') === has
            ? ('no-op' as const)
            : verb === 'add'
              ? ('create' as const)
              : ('delete' as const),
        reasons: [has ? `the repository has label ${label}` : `the repository has no label ${label}`],
      },
    };
  };
  return defineCommand<{ label: string }, RepoLabelsOutput>({
    name: `repo label ${verb}`,
    summary: verb === 'add' ? 'Add a label to a repository' : 'Remove a label from a repository',
    description: 'Needs REPO_ADMIN.',
    args: [labelArg],
    flags: {},
    outputSchema: 'repo-labels',
    effect: 'mutating',
    needs: scopedNeeds('REPO_ADMIN', 'changing labels'),
    examples: [`bbdc repo label ${verb} backend -R PROJ/api`],
    parse: ({ args }) => ({ label: parseLabel(args[0]) }),
    plan: async (o, deps) => planOf((await prepare(o.label, deps)).change),
    async run(o, deps) {
      const p = await prepare(o.label, deps);
      await apply(p.change);
      const labels =
        verb === 'add'
          ? [...new Set([...p.c.labels, o.label])].sort()
          : p.c.labels.filter((l) => l !== o.label);
      return { repository: `${p.c.repo.project}/${p.c.repo.slug}`, labels };
    },
    human(d, ui) {
      ui.line(`${d.repository} labels: ${d.labels.join(', ') || 'none'}`);
    },
  });
}

export const add = change('add');
export const remove = change('remove');
