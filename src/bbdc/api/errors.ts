import { type ErrorKind, RealmforgeError, sentences } from '../../core/errors.ts';
import { neededPermission } from './needed-permission.ts';

/** The error body Bitbucket sends with a 4xx/5xx answer. */
export type BitbucketErrorBody = {
  errors?: { message?: string; context?: string | null; exceptionName?: string }[];
};

function kindOf(status: number): ErrorKind {
  if (status === 400 || status === 422) return 'validation';
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 429 || status >= 500) return 'transient';
  if (status >= 400 && status < 500) return 'validation';
  return 'internal';
}

function serverErrors(body: string): NonNullable<BitbucketErrorBody['errors']> {
  try {
    return ((JSON.parse(body) as BitbucketErrorBody).errors ?? []).filter((e) => e);
  } catch {
    return [];
  }
}

/**
 * Turns a failed Bitbucket answer into a typed error that keeps the server's own message. `authenticated`: the request
 * carried credentials. Bitbucket refuses a permission it does not grant with 403, or with 401 and an
 * AuthorisationException (its answer to wrong credentials is 401 with an AuthenticationException): either way, for a
 * request that carried credentials, the hint names the permission instead of sending the user to log in again.
 */
export function errorFromResponse(
  status: number,
  body: string,
  method: string,
  path: string,
  host: string,
  attempts = 1,
  authenticated = true,
) {
  const errors = serverErrors(body);
  const messages = errors
    .filter((e) => e.message)
    .map((e) => (e.context ? `${e.context}: ${e.message}` : String(e.message)));
  const kind = kindOf(status);
  const what = messages.length ? messages.join('; ') : `HTTP ${status}`;
  const after = attempts > 1 ? ` after ${attempts} attempts` : '';
  const notPermitted =
    status === 403 ||
    (status === 401 &&
      authenticated &&
      errors.some((e) => /AuthorisationException$/.test(e.exceptionName ?? '')));
  let hint: string | undefined;
  if (status === 401 && !notPermitted) hint = `Check your credentials: run \`bbdc auth login ${host}\``;
  if (notPermitted) {
    const needed = neededPermission(method, path);
    hint = needed
      ? `This needs ${needed}, which your account lacks; ask a project or Bitbucket administrator to grant it (logging in again will not help)`
      : 'Your account lacks the permission this needs; ask a Bitbucket administrator (logging in again will not help)';
  }
  if (status === 429) hint = 'The server is rate limiting; retry later or raise --retry-count';
  const error = new RealmforgeError(
    kind,
    `${sentences(`${method} ${path} failed (${status})${after}: ${what}`, hint)}.`,
    {
      details: messages.length > 1 ? messages : [],
    },
  );
  return Object.assign(error, { status });
}

/** The HTTP status of an error made by errorFromResponse, if any. */
export function statusOf(error: unknown): number | undefined {
  return (error as { status?: number })?.status;
}
