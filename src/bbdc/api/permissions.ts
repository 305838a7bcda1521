import type { PermissionEntry } from '../../../generated/types/cli/output/permission-list.ts';
import { UsageError } from '../../core/errors.ts';
import type { BitbucketClient } from './client.ts';
import type { Page } from './paging.ts';
import { projectPath } from './projects.ts';
import { repoPath } from './repositories.ts';

/** What a permission applies to: a project, or a repository in a project. */
export type PermissionScope =
  | { kind: 'project'; project: string }
  | { kind: 'repository'; project: string; slug: string };
/** Who holds it. */
export type Subject = 'user' | 'group';

/** A user's or group's explicit permission as Bitbucket lists it. */
export type RestPermitted = {
  permission: string;
  user?: { name: string; displayName?: string };
  group?: { name: string };
};

/** The levels of a scope, lowest first. */
export function levels(kind: PermissionScope['kind']): string[] {
  const prefix = kind === 'project' ? 'PROJECT' : 'REPO';
  return [`${prefix}_READ`, `${prefix}_WRITE`, `${prefix}_ADMIN`];
}

/** Accepts `read|write|admin` or the full name (PROJECT_WRITE, REPO_ADMIN) for the scope; a UsageError otherwise. */
export function parseLevel(value: unknown, kind: PermissionScope['kind']): string {
  const allowed = levels(kind);
  const text = String(value ?? '').toUpperCase();
  const full = allowed.find((l) => l === text || l.endsWith(`_${text}`));
  if (!value || !full)
    throw new UsageError(
      `--permission "${value ?? ''}" must be one of read, write, admin (or ${allowed.join(', ')})`,
    );
  return full;
}

/** `PROJ` or `PROJ/slug`, as output names the scope. */
export function scopeName(scope: PermissionScope): string {
  return scope.kind === 'project' ? scope.project : `${scope.project}/${scope.slug}`;
}

/** The REST path listing (and granting, revoking) the scope's user or group permissions. */
export function permissionsPath(scope: PermissionScope, subject: Subject): string {
  const base = scope.kind === 'project' ? projectPath(scope.project) : repoPath(scope.project, scope.slug);
  return `${base}/permissions/${subject === 'user' ? 'users' : 'groups'}`;
}

/** The entry shape bbdc prints. */
export function toEntry(p: RestPermitted): PermissionEntry {
  const name = p.user?.name ?? p.group?.name ?? '';
  return { name, ...(p.user?.displayName && { displayName: p.user.displayName }), permission: p.permission };
}

/** The explicit permission `name` holds on the scope, or null. */
export async function currentPermission(
  client: BitbucketClient,
  scope: PermissionScope,
  subject: Subject,
  name: string,
): Promise<string | null> {
  const page = await client.get<Page<RestPermitted>>(permissionsPath(scope, subject), {
    filter: name,
    limit: 1000,
  });
  return (
    page.values.map(toEntry).find((e) => e.name.toLowerCase() === name.toLowerCase())?.permission ?? null
  );
}
