import { ValidationError } from '../../../core/errors.ts';
import type { BitbucketClient } from '../../api/client.ts';
import { statusOf } from '../../api/errors.ts';
import { userPath } from '../../api/path.ts';
import type { RestUser } from '../../api/pull-requests.ts';

/** Splits a comma-separated --reviewers value into distinct, trimmed names. */
export function splitNames(value: string | undefined): string[] {
  return [
    ...new Set(
      (value ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

/** Looks every name up; the users found, and the names no user has. */
export async function lookUpUsers(
  client: BitbucketClient,
  names: string[],
): Promise<{ found: RestUser[]; missing: string[] }> {
  const found: RestUser[] = [];
  const missing: string[] = [];
  for (const name of names) {
    try {
      found.push(await client.get<RestUser>(userPath('reviewer', name)));
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
      missing.push(name);
    }
  }
  return { found, missing };
}

/** Throws a ValidationError naming `flag` and every unknown user, before anything is changed. */
export function assertAllFound(missing: string[], flag: string): void {
  if (missing.length)
    throw new ValidationError(
      `${flag}: no such user ${missing.map((m) => `"${m}"`).join(', ')}; nothing was changed. Check the usernames (bbdc uses the login name, e.g. jsmith).`,
    );
}
