import type { PermissionShowOutput } from '../../../../generated/types/cli/output/permission-show.ts';
import type { BitbucketClient } from '../../api/client.ts';
import { identify } from '../../api/identity.ts';
import type { Page } from '../../api/paging.ts';
import { levels } from '../../api/permissions.ts';
import type { Ui } from '../../output/ui.ts';

/**
 * The caller's effective permission. Bitbucket has no "my permission" endpoint, but its project and
 * repository listings filter by the permission the caller holds; asking for each level, narrowed by name,
 * tells which levels are held (through any user, group or global grant).
 */
export async function effectivePermission(
  client: BitbucketClient,
  host: string,
  target:
    | { kind: 'project'; key: string; name: string }
    | { kind: 'repository'; project: string; slug: string; name: string },
): Promise<PermissionShowOutput> {
  const { username } = await identify(client, host);
  const held: string[] = [];
  for (const level of levels(target.kind)) {
    if (target.kind === 'project') {
      const page = await client.get<Page<{ key: string }>>('/rest/api/latest/projects', {
        name: target.name,
        permission: level,
        limit: 1000,
      });
      if (page.values.some((p) => p.key === target.key)) held.push(level);
    } else {
      const page = await client.get<Page<{ slug: string; project: { key: string } }>>(
        '/rest/api/latest/repos',
        {
          projectkey: target.project,
          name: target.name,
          permission: level,
          limit: 1000,
        },
      );
      if (page.values.some((r) => r.slug === target.slug && r.project.key === target.project))
        held.push(level);
    }
  }
  return {
    scope: target.kind,
    target: target.kind === 'project' ? target.key : `${target.project}/${target.slug}`,
    username,
    permission: held.at(-1) ?? null,
    permissions: held,
  };
}

/** One line: who holds what on which target. */
export function printEffective(d: PermissionShowOutput, ui: Ui): void {
  ui.line(`${d.username} holds ${d.permission ?? 'no permission'} on ${d.scope} ${d.target}`);
  if (d.permissions.length > 1) ui.line(`  which includes ${d.permissions.slice(0, -1).join(', ')}`);
}
