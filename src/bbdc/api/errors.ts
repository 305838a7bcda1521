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

function serverMessages(body: string): string[] {
  try {
    const parsed = JSON.parse(body) as BitbucketErrorBody;
    return (parsed.errors ?? [])
      .filter((e) => e?.message)
      .map((e) => (e.context ? `${e.context}: ${e.message}` : String(e.message)));
  } catch {
    return [];
  }
}

/** Turns a failed Bitbucket answer into a typed error that keeps the server's own message. */
export function errorFromResponse(
  status: number,
  body: string,
  method: string,
  path: string,
  host: string,
  attempts = 1,
) {
  const messages = serverMessages(body);
  const kind = kindOf(status);
  const what = messages.length ? messages.join('; ') : `HTTP ${status}`;
  const after = attempts > 1 ? ` after ${attempts} attempts` : '';
  let hint: string | undefined;
  if (status === 401) hint = `Check your credentials: run \`bbdc auth login ${host}\``;
  if (status === 403) {
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
