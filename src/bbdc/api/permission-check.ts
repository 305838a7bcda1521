// What a dry-run asks before planning a change: does the caller hold the permission the server will check? It
// asks the server the way the server itself filters (repositories or projects by `permission`), so a plan the
// server would refuse says so instead of "would ..." (a read-only user's auto-merge, a webhook without REPO_ADMIN).
import { RealmforgeError } from '../../core/errors.ts';
import type { BitbucketClient } from './client.ts';
import { getIfExists } from './optional.ts';
import { collectPages } from './paging.ts';

/** The permissions bbdc's writes need, as the 9.4 document names them. */
export type NeededPermission = 'REPO_WRITE' | 'REPO_ADMIN' | 'PROJECT_WRITE' | 'PROJECT_ADMIN';

/** Where the permission is needed: a repository, or a project. */
export type PermissionTarget = { project: string; slug?: string };

/** Whether the caller holds `needed` on the target, asked of the server. */
export async function holds(
  client: BitbucketClient,
  target: PermissionTarget,
  needed: NeededPermission,
): Promise<boolean> {
  if (needed === 'PROJECT_ADMIN' || target.slug === undefined) {
    const { values } = await collectPages<{ key?: string }>(
      client,
      '/rest/api/latest/projects',
      { permission: needed.startsWith('REPO_') ? needed.replace('REPO_', 'PROJECT_') : needed },
      undefined,
    );
    return values.some((p) => p.key?.toUpperCase() === target.project.toUpperCase());
  }
  const { values } = await collectPages<{ slug?: string }>(
    client,
    '/rest/api/latest/repos',
    { projectkey: target.project, permission: needed },
    undefined,
  );
  return values.some((r) => r.slug === target.slug!.toLowerCase());
}

/**
 * Refuses the dry-run (exit 3, kind auth) when the caller lacks `needed` on the target, naming the permission,
 * the target and what needs it; `who` is the caller's name when known.
 */
export async function requirePermission(
  client: BitbucketClient,
  target: PermissionTarget,
  needed: NeededPermission,
  action: string,
): Promise<void> {
  if (await holds(client, target, needed)) return;
  const where = target.slug === undefined ? `project ${target.project}` : `${target.project}/${target.slug}`;
  throw new RealmforgeError(
    'auth',
    `${client.username ?? 'you'} lack${client.username ? 's' : ''} ${needed} on ${where}, which ${action} needs: the server would refuse it; nothing was changed`,
  );
}

/** What a command declares it needs (CommandDefinition.needs), checked by the dry-run before it plans. */
export type Needs<O, D> = {
  permission: NeededPermission;
  action: string;
  target?(options: O, deps: D): Promise<PermissionTarget | undefined>;
};

/**
 * The one check every dry-run makes: the declared permission on the declared target (the current repository by
 * default), asked of the server as it would decide; refuses with exit 3 naming it.
 */
export async function checkNeeds<
  O,
  D extends {
    repo(): Promise<PermissionTarget & { host: unknown }>;
    client(host?: never): Promise<BitbucketClient>;
  },
>(needs: Needs<O, D>, options: O, deps: D): Promise<void> {
  const target = needs.target
    ? await needs.target(options, deps)
    : await deps.repo().then((r) => ({ project: r.project, slug: (r as { slug?: string }).slug }));
  if (!target) return;
  // On a project (no repository named) the same rule is the project's permission of that level.
  const needed =
    target.slug === undefined
      ? (needs.permission.replace('REPO_', 'PROJECT_') as NeededPermission)
      : needs.permission;
  await requirePermission(await deps.client(), target, needed, needs.action);
}

/**
 * The needs of a command that acts on the current repository, or on the project its options name (`project`,
 * as the project variants of the factories parse it): REPO_* there is PROJECT_* here.
 */
export function scopedNeeds(permission: 'REPO_WRITE' | 'REPO_ADMIN', action: string) {
  return {
    permission,
    action,
    target: async (o: unknown, deps: { repo(): Promise<PermissionTarget> }): Promise<PermissionTarget> => {
      const project = (o as { project?: unknown }).project;
      if (typeof project === 'string') return { project };
      const repo = await deps.repo();
      return { project: repo.project, slug: repo.slug };
    },
  };
}

/** A `needs.target` for a resource that may not exist: the target when GET `path` answers, else no check. */
export async function ifExists(
  client: BitbucketClient,
  path: string,
  target: PermissionTarget,
): Promise<PermissionTarget | undefined> {
  return (await getIfExists(client, path)) ? target : undefined;
}
