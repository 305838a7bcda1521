import type { BitbucketClient, Query } from './client.ts';
import { statusOf } from './errors.ts';

/** GETs a resource, answering undefined when the server says 404 instead of throwing. */
export async function getIfExists<T>(
  client: BitbucketClient,
  path: string,
  query?: Query,
): Promise<T | undefined> {
  try {
    return await client.get<T>(path, query);
  } catch (error) {
    if (statusOf(error) === 404) return undefined;
    throw error;
  }
}
