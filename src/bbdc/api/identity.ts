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
        details: [
          `create a personal access token at ${tokenPageUrl(host)}`,
          `then run: bbdc auth login ${host} --token <token>`,
        ],
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
