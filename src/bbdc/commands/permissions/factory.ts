// Builds the permission list/grant/revoke commands for projects and repositories, users and groups:
// the twelve commands differ only in scope and subject, so each command file is one call here.
import type { PermissionChangeOutput } from '../../../../generated/types/cli/output/permission-change.ts';
import type { PermissionListOutput } from '../../../../generated/types/cli/output/permission-list.ts';
import { identify } from '../../api/identity.ts';
import { getIfExists } from '../../api/optional.ts';
import { collectPages } from '../../api/paging.ts';
import { userPath } from '../../api/path.ts';
import { scopedNeeds } from '../../api/permission-check.ts';
import {
  currentPermission,
  type PermissionScope,
  parseLevel,
  permissionsPath,
  type RestPermitted,
  type Subject,
  scopeName,
  toEntry,
} from '../../api/permissions.ts';
import { pagingFlags, parsePaging } from '../../cli/paging-flags.ts';
import type { ArgSpec, CommandDeps, ResolvedHost } from '../../command.ts';
import { defineCommand } from '../../command.ts';
import { normalizeProjectKey } from '../../config/remote-url.ts';
import { httpPlan } from '../../output/http-plan.ts';

type Kind = PermissionScope['kind'];
type Target = { project?: string };
const plural = (s: Subject) => (s === 'user' ? 'users' : 'groups');
const projectArg: ArgSpec = { name: 'project', required: true, description: 'Project key' };
const nameArg = (s: Subject): ArgSpec => ({
  name: s,
  required: true,
  description: `${s === 'user' ? 'User' : 'Group'} name`,
});
const words = (kind: Kind, s: Subject, verb: string) =>
  `${kind === 'project' ? 'project' : 'repo'} permissions ${plural(s)} ${verb}`;
const example = (kind: Kind, rest: string) =>
  kind === 'project'
    ? `bbdc project permissions ${rest.replace('{p}', 'PROJ ')}`
    : `bbdc repo permissions ${rest.replace('{p}', '')} -R PROJ/api`;

/** The scope: the project argument, or the repository from -R / the git remote. */
async function resolveScope(
  kind: Kind,
  t: Target,
  deps: CommandDeps,
): Promise<{ scope: PermissionScope; host: ResolvedHost }> {
  if (kind === 'project') return { scope: { kind, project: t.project! }, host: await deps.host() };
  const repo = await deps.repo();
  return { scope: { kind, project: repo.project, slug: repo.slug }, host: repo.host };
}

/** `... permissions users|groups list`: the explicit grants of a project or repository. */
export function permissionList(kind: Kind, subject: Subject) {
  return defineCommand<Target & { limit: number; start: number; filter?: string }, PermissionListOutput>({
    name: words(kind, subject, 'list'),
    summary: `List the ${plural(subject)} with a permission on a ${kind}`,
    args: kind === 'project' ? [projectArg] : [],
    flags: {
      ...pagingFlags(plural(subject), 100),
      filter: {
        type: 'string',
        shortFlag: 'f',
        value: 'TEXT',
        description: `Only ${plural(subject)} whose name contains TEXT`,
      },
    },
    outputSchema: 'permission-list',
    effect: 'safe',
    examples: [example(kind, `${plural(subject)} list {p}`)],
    parse: ({ args, flags }) => ({
      project: kind === 'project' ? normalizeProjectKey(args[0]) : undefined,
      filter: flags.filter as string | undefined,
      ...parsePaging(flags, 100),
    }),
    async run(o, deps) {
      const { scope, host } = await resolveScope(kind, o, deps);
      const client = await deps.client(host);
      const { values, truncated } = await collectPages<RestPermitted>(
        client,
        permissionsPath(scope, subject),
        { filter: o.filter },
        o.limit,
        o.start,
      );
      const entries = values.map(toEntry);
      return { scope: kind, target: scopeName(scope), subject, entries, count: entries.length, truncated };
    },
    human(d, ui) {
      if (!d.entries.length) ui.notice(`No ${plural(d.subject)} have an explicit permission on ${d.target}.`);
      ui.table(
        d.subject === 'user' ? ['user', 'name', 'permission'] : ['group', 'permission'],
        d.entries.map((e) =>
          d.subject === 'user' ? [e.name, e.displayName ?? '', e.permission] : [e.name, e.permission],
        ),
      );
      if (d.truncated) ui.notice(`Showing the first ${d.count}; raise --limit for more.`);
    },
  });
}

type ChangeOptions = Target & { name: string; permission: string | null };

/** Why the user or group cannot be granted anything, or undefined when it exists. */
async function missingSubject(
  deps: CommandDeps,
  host: ResolvedHost,
  scope: PermissionScope,
  subject: Subject,
  name: string,
) {
  const client = await deps.client(host);
  if (subject === 'user') {
    const user = await getIfExists(client, userPath('user', name));
    return user ? undefined : `user ${name} does not exist`;
  }
  // Groups without a permission here are listed by .../groups/none; with one, by .../groups.
  const none = await client.get<{ values: { name: string }[] }>(`${permissionsPath(scope, subject)}/none`, {
    filter: name,
    limit: 1000,
  });
  return none.values.some((g) => g.name === name) ? undefined : `group ${name} does not exist`;
}

function changeCommand(kind: Kind, subject: Subject, verb: 'grant' | 'revoke') {
  return defineCommand<ChangeOptions, PermissionChangeOutput>({
    name: words(kind, subject, verb),
    summary:
      verb === 'grant'
        ? `Give a ${subject} a permission on a ${kind} (replacing any other)`
        : `Take away a ${subject}'s explicit permission on a ${kind}`,
    args: [...(kind === 'project' ? [projectArg] : []), nameArg(subject)],
    flags:
      verb === 'grant'
        ? {
            permission: {
              type: 'string',
              value: 'LEVEL',
              description: `read, write or admin (${kind === 'project' ? 'PROJECT' : 'REPO'}_READ|WRITE|ADMIN)`,
            },
          }
        : {},
    outputSchema: 'permission-change',
    effect: 'mutating',
    needs: scopedNeeds('REPO_ADMIN', 'changing permissions'),
    examples: [
      example(
        kind,
        `${plural(subject)} ${verb} {p}${subject === 'user' ? 'bob' : 'developers'}${verb === 'grant' ? ' --permission write' : ''}`,
      ),
    ],
    parse: ({ args, flags }) => ({
      project: kind === 'project' ? normalizeProjectKey(args[0]) : undefined,
      name: args[kind === 'project' ? 1 : 0],
      permission: verb === 'grant' ? parseLevel(flags.permission, kind) : null,
    }),
    async plan(o, deps) {
      const { scope, host } = await resolveScope(kind, o, deps);
      const client = await deps.client(host);
      const { username } = await identify(client, host.url);
      const previous = await currentPermission(client, scope, subject, o.name);
      const missing = verb === 'grant' ? await missingSubject(deps, host, scope, subject, o.name) : undefined;
      const predicted =
        previous === o.permission ? 'no-op' : verb === 'revoke' ? 'delete' : previous ? 'update' : 'create';
      const query = new URLSearchParams({ name: o.name, ...(o.permission && { permission: o.permission }) });
      return httpPlan({
        intent: `bbdc ${words(kind, subject, verb)} ${o.name}`,
        host: host.url,
        target: { type: `${kind} ${subject} permission`, id: `${scopeName(scope)}:${o.name}` },
        request: {
          method: verb === 'grant' ? 'PUT' : 'DELETE',
          path: `${permissionsPath(scope, subject)}?${query}`,
        },
        description:
          verb === 'grant'
            ? `give ${subject} ${o.name} ${o.permission} on ${scopeName(scope)}`
            : `revoke the permission of ${subject} ${o.name} on ${scopeName(scope)}`,
        predicted,
        reasons: [
          `authenticated as ${username}`,
          `${o.name} now holds ${previous ?? 'no explicit permission'}`,
        ],
        blocking: missing ? [missing] : [],
      });
    },
    async run(o, deps) {
      const { scope, host } = await resolveScope(kind, o, deps);
      const client = await deps.client(host);
      const previous = await currentPermission(client, scope, subject, o.name);
      const query = { name: o.name, ...(o.permission && { permission: o.permission }) };
      await client.request(verb === 'grant' ? 'PUT' : 'DELETE', permissionsPath(scope, subject), { query });
      return {
        scope: kind,
        target: scopeName(scope),
        subject,
        name: o.name,
        permission: o.permission,
        previous,
        changed: previous !== o.permission,
      };
    },
    human(d, ui) {
      if (!d.changed)
        ui.line(
          `${d.name} already ${d.permission ? `holds ${d.permission}` : 'has no explicit permission'} on ${d.target}.`,
        );
      else if (d.permission)
        ui.line(
          `Gave ${d.subject} ${d.name} ${d.permission} on ${d.target}${d.previous ? ` (was ${d.previous})` : ''}.`,
        );
      else ui.line(`Revoked ${d.previous} from ${d.subject} ${d.name} on ${d.target}.`);
    },
  });
}

/** `... permissions users|groups grant`: sets the one explicit permission a user or group holds. */
export const permissionGrant = (kind: Kind, subject: Subject) => changeCommand(kind, subject, 'grant');
/** `... permissions users|groups revoke`: removes a user's or group's explicit permission. */
export const permissionRevoke = (kind: Kind, subject: Subject) => changeCommand(kind, subject, 'revoke');
