import { RealmforgeError } from '../../core/errors.ts';
import type { BitbucketClient } from './client.ts';
import { statusOf } from './errors.ts';
import { segment, userPath } from './path.ts';

/** A Bitbucket user as GET /users/{userSlug} returns it (the fields bbdc uses). */
export type RestUser = {
  name: string;
  slug: string;
  displayName?: string;
  emailAddress?: string;
  id?: number;
};

/** Who the server says we are: the X-AUSERNAME header, then the user record when it can be read. */
export type Identity = { username: string; user?: RestUser };

/** Makes one authenticated call and reads X-AUSERNAME; an AuthError when the server saw no user. */
export async function identify(client: BitbucketClient, host: string): Promise<Identity> {
  await client.get('/rest/api/latest/application-properties');
  const username = client.username;
  if (!username) {
    throw new RealmforgeError(
      'auth',
      `${host} did not recognise any credentials (no X-AUSERNAME header in its answer)`,
      {
        details: loginSteps(host),
      },
    );
  }
  try {
    const user = await client.get<RestUser>(userPath('username', username));
    return { username, user };
  } catch (error) {
    if (statusOf(error) === 404 || statusOf(error) === 403) return { username };
    throw error;
  }
}

/** The personal access token page: per user when the slug is known, else the generic page. */
export function tokenPageUrl(host: string, slug?: string): string {
  return slug
    ? `${host}/plugins/servlet/access-tokens/users/${segment('user slug', slug)}/manage`
    : `${host}/plugins/servlet/access-tokens/manage`;
}

/**
 * How to log in to `host`, for an error that found no credentials: the token page, then a login that keeps the token
 * out of argv and shell history (asked for at a terminal, read from stdin in a script).
 */
export function loginSteps(host: string): string[] {
  return [
    `open ${tokenPageUrl(host)} and create a personal access token (read access is enough to start)`,
    `then run: bbdc auth login ${host}  (it asks for the token; in a script: echo "$TOKEN" | bbdc auth login ${host} --with-token, or set BBDC_TOKEN)`,
  ];
}
