import { isDeepStrictEqual } from 'node:util';
import type { BranchModelOutput } from '../../../../generated/types/cli/output/branch-model.ts';
import { UsageError } from '../../../core/errors.ts';
import { type CommandDeps, defineCommand } from '../../command.ts';
import { apply, type Change, planOf } from '../../output/change.ts';
import { modelPath, printModel, type RestBranchModel, toModel } from './model.ts';

const kinds = ['BUGFIX', 'FEATURE', 'HOTFIX', 'RELEASE'];
type Options = {
  development?: string;
  production?: string;
  prefixes: Record<string, string>;
  enable: string[];
  disable: string[];
};

/** `default` follows the default branch, `none` (production only) turns it off, anything else is a branch. */
const refOf = (value: string) =>
  value === 'default'
    ? { refId: null, useDefault: true }
    : { refId: `refs/heads/${value.replace(/^refs\/heads\//, '')}`, useDefault: false };

/** The PUT body: the current configuration with only the asked parts changed. */
export function nextModel(current: RestBranchModel, o: Options): RestBranchModel {
  return {
    development: o.development
      ? refOf(o.development)
      : (current.development ?? { refId: null, useDefault: true }),
    production:
      o.production === undefined
        ? (current.production ?? null)
        : o.production === 'none'
          ? null
          : refOf(o.production),
    types: kinds.map((id) => {
      const t = current.types?.find((x) => x.id === id) ?? { id, enabled: false };
      const enabled =
        o.enable.includes(id) || o.prefixes[id] !== undefined
          ? true
          : o.disable.includes(id)
            ? false
            : t.enabled !== false;
      return { id, enabled, ...((o.prefixes[id] ?? t.prefix) && { prefix: o.prefixes[id] ?? t.prefix }) };
    }),
  };
}

async function prepare(o: Options, deps: CommandDeps) {
  const repo = await deps.repo();
  const client = await deps.client(repo.host);
  const current = (await client.get<RestBranchModel | undefined>(modelPath(repo))) ?? {};
  const body = nextModel(current, o);
  const same = isDeepStrictEqual(body, nextModel(current, { prefixes: {}, enable: [], disable: [] }));
  const change: Change = {
    client,
    intent: 'bbdc branch model update',
    host: repo.host.url,
    target: { type: 'branch-model', id: `${repo.project}/${repo.slug}` },
    request: { method: 'PUT', path: modelPath(repo), body },
    description: `update the branching model of ${repo.project}/${repo.slug}`,
    predicted: same ? 'no-op' : 'update',
    reasons: same ? ['the model already is as asked'] : [],
  };
  return { change, repo, body };
}

const upper = (v: unknown, flag: string) =>
  (Array.isArray(v) ? v : v === undefined ? [] : [v])
    .flatMap((x) => String(x).split(','))
    .map((x) => {
      const id = x.trim().toUpperCase();
      if (!kinds.includes(id))
        throw new UsageError(`${flag} "${x}" must be one of ${kinds.map((k) => k.toLowerCase()).join(', ')}`);
      return id;
    });

/** `bbdc branch model update`: changes the given parts of the branching model and keeps the rest. */
export const command = defineCommand<Options, BranchModelOutput>({
  name: 'branch model update',
  summary: 'Change the branching model: development or production branch, branch prefixes, enabled types',
  description: 'Only what is given changes. Needs REPO_ADMIN.',
  args: [],
  flags: {
    development: {
      type: 'string',
      value: 'BRANCH',
      description: 'Development branch, or "default" for the default branch',
    },
    production: {
      type: 'string',
      value: 'BRANCH',
      description: 'Production branch, "default", or "none" to have none',
    },
    prefix: {
      type: 'string',
      isMultiple: true,
      value: 'TYPE=PREFIX',
      description: "A branch type's prefix (enables it), e.g. feature=feat/",
    },
    enable: {
      type: 'string',
      isMultiple: true,
      value: 'TYPES',
      description: 'Turn branch types on (bugfix, feature, hotfix, release)',
    },
    disable: { type: 'string', isMultiple: true, value: 'TYPES', description: 'Turn branch types off' },
  },
  outputSchema: 'branch-model',
  effect: 'mutating',
  needs: { permission: 'REPO_ADMIN', action: 'changing the branching model' },
  examples: [
    'bbdc branch model update --development develop --prefix feature=feat/ -R PROJ/api',
    'bbdc branch model update --production none --disable hotfix --dry-run',
  ],
  parse: ({ flags }) => {
    const prefixes: Record<string, string> = {};
    for (const p of Array.isArray(flags.prefix)
      ? flags.prefix
      : flags.prefix === undefined
        ? []
        : [flags.prefix]) {
      const [type, ...rest] = String(p).split('=');
      const prefix = rest.join('=');
      if (!prefix) throw new UsageError(`--prefix "${p}" must be TYPE=PREFIX, e.g. feature=feat/`);
      prefixes[upper(type, '--prefix')[0]] = prefix;
    }
    const o: Options = {
      prefixes,
      enable: upper(flags.enable, '--enable'),
      disable: upper(flags.disable, '--disable'),
    };
    if (flags.development !== undefined) o.development = String(flags.development);
    if (flags.production !== undefined) o.production = String(flags.production);
    if (o.development === 'none')
      throw new UsageError('--development cannot be none: a model always has a development branch');
    const both = o.disable.filter((t) => o.enable.includes(t) || t in prefixes);
    if (both.length) throw new UsageError(`${both.join(', ').toLowerCase()} is both enabled and disabled`);
    if (
      !o.development &&
      !o.production &&
      !Object.keys(prefixes).length &&
      !o.enable.length &&
      !o.disable.length
    )
      throw new UsageError(
        'nothing to change: pass --development, --production, --prefix, --enable or --disable',
      );
    return o;
  },
  plan: async (o, deps) => planOf((await prepare(o, deps)).change),
  async run(o, deps) {
    const { change, repo, body } = await prepare(o, deps);
    const res = await apply<RestBranchModel | undefined>(change);
    return { ...toModel(repo, res?.data ?? body), changed: res !== undefined };
  },
  human(d, ui) {
    ui.line(
      d.changed
        ? `Updated the branching model of ${d.repository}`
        : `The branching model of ${d.repository} already was as asked`,
    );
    printModel(d, ui);
  },
});
