import { hostPort } from '../config/hosts.ts';
import type { BitbucketClient } from './client.ts';
import type { Page } from './paging.ts';
import type { RestRepository } from './repositories.ts';

/** Reads one repository's clone links and returns their `host:port` names that differ from the web host. */
export async function discoverAliases(client: BitbucketClient): Promise<string[]> {
  const page = await client.get<Page<RestRepository>>('/rest/api/latest/repos', { limit: 1 });
  const web = hostPort(client.baseUrl);
  const found = new Set<string>();
  for (const link of page.values[0]?.links?.clone ?? []) {
    try {
      const url = new URL(link.href);
      const name = url.host.toLowerCase();
      if (name !== web) found.add(name);
    } catch {
      // A clone link that is not a URL names no alias.
    }
  }
  return [...found].sort();
}
