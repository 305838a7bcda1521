// `branch restriction update` / `project branch-restriction update`. The 9.4 API has no update of a restriction;
// a POST of the same type and branches replaces it in place, so a change of users or groups is that one POST. A
// change of type or branches is a new restriction: it is created first and the old one deleted after, so a
// failure leaves the old one (create failed) or both (delete failed, and the message says so), never neither.
import type { BranchRestrictionOutput } from '../../../../generated/types/cli/output/branch-restriction.ts';
import { RealmforgeError, UsageError } from '../../../core/errors.ts';
import { scopedNeeds } from '../../api/permission-check.ts';
import { formatRefMatcher, parseRefMatcher, refMatcherSyntax } from '../../api/ref-matcher.ts';
import { scopeId } from '../../api/scope.ts';
import { scopeClient } from '../../cli/scope.ts';
import { type CommandDeps, defineCommand } from '../../command.ts';
import { normalizeProjectKey } from '../../config/remote-url.ts';
import { apply, type Change, planOf } from '../../output/change.ts';
import { type Kind, list, type RestRestriction, restrictionsPath, toRestriction, types } from './commands.ts';

type Options = {
  project?: string;
  id: number;
  type?: string;
  branch?: ReturnType<typeof parseRefMatcher>;
  users?: string[];
  groups?: string[];
};

async function prepare(word: string, o: Options, deps: CommandDeps) {
  const s = await scopeClient(deps, o.project);
  const current = await s.client.get<RestRestriction>(restrictionsPath(s.scope, o.id));
  const body = {
    type: o.type ?? current.type,
    matcher: o.branch ?? current.matcher,
    users: o.users ?? (current.users ?? []).map((u) => u.name),
    groups: o.groups ?? current.groups ?? [],
    accessKeyIds: (current.accessKeys ?? []).map((k) => k.key.id),
  };
  const inPlace = body.type === current.type && body.matcher.id === current.matcher.id;
  const what = `${body.type} on ${formatRefMatcher(body.matcher)}`;
  const create: Change = {
    client: s.client,
    intent: `bbdc ${word} update ${o.id}`,
    host: s.host.url,
    target: { type: 'branch-restriction', id: `${scopeId(s.scope)}/${o.id}` },
    request: {
      method: 'POST',
      path: restrictionsPath(s.scope),
      body: [body],
      contentType: 'application/vnd.atl.bitbucket.bulk+json',
    },
    description: inPlace
      ? `replace restriction ${o.id} (${what}) with the new users and groups`
      : `create ${what}, then delete restriction ${o.id} (${current.type} on ${formatRefMatcher(current.matcher)})`,
    predicted: 'update',
    reasons: inPlace
      ? ['the 9.4 API has no update: a POST of the same type and branches replaces the restriction in place']
      : [
          `the 9.4 API has no update: the replacement is created first, then DELETE ${restrictionsPath(s.scope, o.id)}; if that delete fails both restrictions exist (never neither)`,
        ],
  };
  const remove: Change | undefined = inPlace
    ? undefined
    : {
        ...create,
        request: { method: 'DELETE', path: restrictionsPath(s.scope, o.id) },
        predicted: 'delete',
      };
  return { scope: scopeId(s.scope), create, remove };
}

/** The update command of a scope. */
export function restrictionUpdateCommand(kind: Kind) {
  const word = kind === 'project' ? 'project branch-restriction' : 'branch restriction';
  const at = kind === 'project' ? 1 : 0;
  return defineCommand<Options, BranchRestrictionOutput>({
    name: `${word} update`,
    summary: "Change a branch restriction's type, branches or exempt users and groups",
    description: `Only the flags given change. Bitbucket has no update operation: see the plan (--dry-run) for the requests. Branches: ${refMatcherSyntax}`,
    args: [
      ...(kind === 'project' ? [{ name: 'project', required: true, description: 'Project key' }] : []),
      { name: 'id', required: true, description: `Restriction id (see bbdc ${word} list)` },
    ],
    flags: {
      type: { type: 'string', value: 'TYPE', choices: types, description: types.join(', ') },
      branch: {
        type: 'string',
        value: 'MATCHER',
        description: 'The branches, e.g. main or pattern:release/*',
      },
      users: {
        type: 'string',
        isMultiple: true,
        value: 'USERS',
        description: 'Exempt users (replaces the list)',
      },
      groups: {
        type: 'string',
        isMultiple: true,
        value: 'GROUPS',
        description: 'Exempt groups (replaces the list)',
      },
    },
    outputSchema: 'branch-restriction',
    effect: 'mutating',
    needs: scopedNeeds('REPO_ADMIN', 'changing branch restrictions'),
    examples: [`bbdc ${word} update ${kind === 'project' ? 'PROJ ' : ''}12 --groups release-managers,admins`],
    parse: ({ args, flags }) => {
      const id = String(args[at] ?? '');
      if (!/^\d{1,9}$/.test(id))
        throw new UsageError(`restriction id "${id}" must be a number (see bbdc ${word} list)`);
      const o: Options = {
        id: Number(id),
        ...(kind === 'project' && { project: normalizeProjectKey(args[0]) }),
      };
      if (flags.type !== undefined) o.type = String(flags.type);
      if (flags.branch !== undefined) {
        o.branch = parseRefMatcher(String(flags.branch), '--branch');
        if (o.branch.type.id === 'ANY_REF')
          throw new UsageError('--branch any is not allowed: use pattern:* for every branch');
      }
      // A repeatable flag parses to [] when absent.
      const given = (v: unknown) => (Array.isArray(v) ? v.length > 0 : v !== undefined);
      if (given(flags.users)) o.users = list(flags.users);
      if (given(flags.groups)) o.groups = list(flags.groups);
      if (Object.keys(o).length === (kind === 'project' ? 2 : 1))
        throw new UsageError('nothing to change: pass at least one of --type, --branch, --users, --groups');
      return o;
    },
    plan: async (o, deps) => planOf((await prepare(word, o, deps)).create),
    async run(o, deps) {
      const p = await prepare(word, o, deps);
      const res = await apply<RestRestriction | RestRestriction[]>(p.create);
      const created = Array.isArray(res!.data) ? res!.data[0] : res!.data;
      // Deleting by the old id is safe only when the replacement has another one: a server that replaced the
      // restriction in place answers the old id, and the delete would remove the new restriction.
      if (p.remove && created?.id === o.id) return { scope: p.scope, restriction: toRestriction(created) };
      if (p.remove && typeof created?.id !== 'number')
        throw new RealmforgeError(
          'internal',
          `the server accepted the replacement of restriction ${o.id} but named no id for it, so the old one was not deleted (it could be the same); check with \`bbdc ${word} list${kind === 'project' ? ` ${o.project}` : ''}\` and delete ${o.id} if it is still there`,
        );
      if (p.remove)
        try {
          await apply(p.remove);
        } catch (e) {
          throw new RealmforgeError(
            e instanceof RealmforgeError ? e.kind : 'internal',
            `created restriction ${created?.id} (the replacement), but deleting the old restriction ${o.id} failed: ${(e as Error).message}. Both exist now; delete ${o.id} with \`bbdc ${word} delete ${kind === 'project' ? `${o.project} ` : ''}${o.id}\``,
          );
        }
      return { scope: p.scope, restriction: toRestriction(created) };
    },
    human: (d, ui) =>
      ui.line(
        `Updated restriction: now ${d.restriction.id}, ${d.restriction.type} on ${d.restriction.branches}`,
      ),
  });
}
