import type { BitbucketClient, Query } from './client.ts';
import { statusOf } from './errors.ts';

/** GETs a resource, or undefined when the server answers 404; other errors are thrown. */
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
