// `branch restriction ...` (a repository) and `project branch-restriction ...`: branch permissions
// (/rest/branch-permissions/latest), built once for both scopes.
import type { BranchRestrictionOutput } from '../../../../generated/types/cli/output/branch-restriction.ts';
import type { BranchRestrictionListOutput } from '../../../../generated/types/cli/output/branch-restriction-list.ts';
import { UsageError } from '../../../core/errors.ts';
import { collectPages } from '../../api/paging.ts';
import { scopedNeeds } from '../../api/permission-check.ts';
import {
  formatRefMatcher,
  parseRefMatcher,
  type RestRefMatcher,
  refMatcherSyntax,
} from '../../api/ref-matcher.ts';
import { pluginScopePath, type Scope, scopeId } from '../../api/scope.ts';
import { scopeClient } from '../../cli/scope.ts';
import { type CommandDeps, defineCommand } from '../../command.ts';
import { normalizeProjectKey } from '../../config/remote-url.ts';
import { apply, type Change, planOf } from '../../output/change.ts';
import type { Ui } from '../../output/ui.ts';

export type Kind = 'repo' | 'project';
export type RestRestriction = {
  id: number;
  type: string;
  matcher: RestRefMatcher;
  users?: { name: string }[];
  groups?: string[];
  accessKeys?: { key: { id: number } }[];
};
export const types = ['read-only', 'no-deletes', 'fast-forward-only', 'pull-request-only', 'no-creates'];

export function restrictionsPath(scope: Scope, id?: number): string {
  const base = `${pluginScopePath('branch-permissions', scope)}/restrictions`;
  return id === undefined ? base : `${base}/${id}`;
}

export const toRestriction = (r: RestRestriction) => ({
  id: r.id,
  type: r.type,
  branches: formatRefMatcher(r.matcher),
  users: (r.users ?? []).map((u) => u.name),
  groups: r.groups ?? [],
  accessKeys: (r.accessKeys ?? []).map((k) => k.key.id),
});

function print(d: BranchRestrictionListOutput, ui: Ui) {
  if (!d.restrictions.length) ui.notice(`No branch restrictions on ${d.scope}.`);
  ui.table(
    ['id', 'type', 'branches', 'exempt'],
    d.restrictions.map((r) => [
      String(r.id),
      r.type,
      r.branches,
      [...r.users, ...r.groups.map((g) => `@${g}`), ...r.accessKeys.map((k) => `key:${k}`)].join(', '),
    ]),
  );
}

export const list = (xs: unknown) =>
  ((Array.isArray(xs) ? xs : xs === undefined ? [] : [xs]) as string[])
    .flatMap((v) => String(v).split(','))
    .map((v) => v.trim())
    .filter(Boolean);

/** The list, get, create and delete commands of a scope. */
export function restrictionCommands(kind: Kind) {
  const word = kind === 'project' ? 'project branch-restriction' : 'branch restriction';
  const args = kind === 'project' ? [{ name: 'project', required: true, description: 'Project key' }] : [];
  const idArg = { name: 'id', required: true, description: `Restriction id (see bbdc ${word} list)` };
  const project = (a: string[]) => (kind === 'project' ? normalizeProjectKey(String(a[0])) : undefined);
  const idOf = (a: string[]) => {
    const v = a[kind === 'project' ? 1 : 0];
    if (!/^\d+$/.test(String(v ?? '')))
      throw new UsageError(`restriction id "${v}" must be a number (see bbdc ${word} list)`);
    return Number(v);
  };
  const example = kind === 'project' ? 'PROJ ' : '';
  const listCommand = defineCommand<{ project?: string }, BranchRestrictionListOutput>({
    name: `${word} list`,
    summary: `List the branch restrictions (branch permissions) of a ${kind === 'repo' ? 'repository' : 'project'}`,
    args,
    flags: {},
    outputSchema: 'branch-restriction-list',
    effect: 'safe',
    examples: [`bbdc ${word} list ${example}`.trim()],
    parse: ({ args: a }) => ({ project: project(a) }),
    async run(o, deps) {
      const s = await scopeClient(deps, o.project);
      const { values } = await collectPages<RestRestriction>(
        s.client,
        restrictionsPath(s.scope),
        {},
        undefined,
      );
      return { scope: scopeId(s.scope), restrictions: values.map(toRestriction) };
    },
    human: print,
  });
  const get = defineCommand<{ project?: string; id: number }, BranchRestrictionOutput>({
    name: `${word} get`,
    summary: 'Show one branch restriction',
    args: [...args, idArg],
    flags: {},
    outputSchema: 'branch-restriction',
    effect: 'safe',
    examples: [`bbdc ${word} get ${example}12`],
    parse: ({ args: a }) => ({ project: project(a), id: idOf(a) }),
    async run(o, deps) {
      const s = await scopeClient(deps, o.project);
      return {
        scope: scopeId(s.scope),
        restriction: toRestriction(await s.client.get<RestRestriction>(restrictionsPath(s.scope, o.id))),
      };
    },
    human: (d, ui) => print({ scope: d.scope, restrictions: [d.restriction] }, ui),
  });
  type CreateOptions = { project?: string; body: Record<string, unknown> };
  const prepareCreate = async (o: CreateOptions, deps: CommandDeps): Promise<Change> => {
    const s = await scopeClient(deps, o.project);
    const { values } = await collectPages<RestRestriction>(
      s.client,
      restrictionsPath(s.scope),
      {},
      undefined,
    );
    const m = o.body.matcher as RestRefMatcher;
    const same = values.find((r) => r.type === o.body.type && r.matcher.id === m.id);
    return {
      client: s.client,
      intent: `bbdc ${word} create --type ${o.body.type}`,
      host: s.host.url,
      target: { type: 'branch-restriction', id: scopeId(s.scope) },
      // The 9.4 document declares only the bulk form: an array in application/vnd.atl.bitbucket.bulk+json.
      request: {
        method: 'POST',
        path: restrictionsPath(s.scope),
        body: [o.body],
        contentType: 'application/vnd.atl.bitbucket.bulk+json',
      },
      description: `restrict ${formatRefMatcher(m)} (${o.body.type}) on ${scopeId(s.scope)}`,
      predicted: 'create',
      reasons: same
        ? [`restriction ${same.id} already applies ${same.type} to these branches; Bitbucket replaces it`]
        : [],
    };
  };
  const create = defineCommand<CreateOptions, BranchRestrictionOutput>({
    name: `${word} create`,
    summary: 'Restrict who may push to, create or delete matching branches',
    description: `Needs ${kind === 'repo' ? 'REPO_ADMIN' : 'PROJECT_ADMIN'}. Branches: ${refMatcherSyntax}`,
    args,
    flags: {
      type: { type: 'string', value: 'TYPE', choices: types, description: `${types.join(', ')} (required)` },
      branch: {
        type: 'string',
        value: 'MATCHER',
        description: 'The branches (required), e.g. main or pattern:release/*',
      },
      users: {
        type: 'string',
        isMultiple: true,
        value: 'USERS',
        description: 'Users exempt from it, comma-separated or repeated',
      },
      groups: { type: 'string', isMultiple: true, value: 'GROUPS', description: 'Groups exempt from it' },
    },
    outputSchema: 'branch-restriction',
    effect: 'mutating',
    needs: scopedNeeds('REPO_ADMIN', 'changing branch restrictions'),
    examples: [
      `bbdc ${word} create ${example}--type fast-forward-only --branch main --groups release-managers`,
    ],
    parse: ({ args: a, flags }) => {
      if (!flags.type) throw new UsageError(`--type is required: ${types.join(', ')}`);
      if (!flags.branch) throw new UsageError('--branch MATCHER is required, e.g. --branch main');
      const matcher = parseRefMatcher(String(flags.branch), '--branch');
      if (matcher.type.id === 'ANY_REF')
        throw new UsageError(
          '--branch any is not allowed: a restriction names its branches (use pattern:* for every branch)',
        );
      return {
        project: project(a),
        body: { type: flags.type, matcher, users: list(flags.users), groups: list(flags.groups) },
      };
    },
    plan: async (o, deps) => planOf(await prepareCreate(o, deps)),
    async run(o, deps) {
      const change = await prepareCreate(o, deps);
      const res = await apply<RestRestriction | RestRestriction[]>(change);
      // The document answers one restriction; a bulk answer may list them: the one created is the first.
      const created = Array.isArray(res!.data) ? res!.data[0] : res!.data;
      return { scope: change.target.id, restriction: toRestriction(created) };
    },
    human: (d, ui) =>
      ui.line(`Created restriction ${d.restriction.id}: ${d.restriction.type} on ${d.restriction.branches}`),
  });
  const prepareDelete = async (o: { project?: string; id: number }, deps: CommandDeps) => {
    const s = await scopeClient(deps, o.project);
    const current = await s.client.get<RestRestriction>(restrictionsPath(s.scope, o.id));
    const change: Change = {
      client: s.client,
      intent: `bbdc ${word} delete ${o.id}`,
      host: s.host.url,
      target: { type: 'branch-restriction', id: `${scopeId(s.scope)}/${o.id}` },
      request: { method: 'DELETE', path: restrictionsPath(s.scope, o.id) },
      description: `delete restriction ${o.id} (${current.type} on ${formatRefMatcher(current.matcher)})`,
      predicted: 'delete',
      reasons: [],
    };
    return { scope: scopeId(s.scope), current, change };
  };
  const remove = defineCommand<{ project?: string; id: number }, BranchRestrictionOutput>({
    name: `${word} delete`,
    summary: 'Delete a branch restriction',
    args: [...args, idArg],
    flags: {},
    outputSchema: 'branch-restriction',
    effect: 'mutating',
    needs: scopedNeeds('REPO_ADMIN', 'changing branch restrictions'),
    examples: [`bbdc ${word} delete ${example}12`],
    parse: ({ args: a }) => ({ project: project(a), id: idOf(a) }),
    plan: async (o, deps) => planOf((await prepareDelete(o, deps)).change),
    async run(o, deps) {
      const p = await prepareDelete(o, deps);
      await apply(p.change);
      return { scope: p.scope, restriction: toRestriction(p.current), deleted: true };
    },
    human: (d, ui) => ui.line(`Deleted restriction ${d.restriction.id}`),
  });
  return { list: listCommand, get, create, remove };
}
