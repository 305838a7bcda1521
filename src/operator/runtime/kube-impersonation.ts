// The Impersonate-* headers of a kubeconfig user (as, as-groups, as-uid, as-user-extra), as client-go sends them:
// without them the operator would act with the base identity's rights instead of the impersonated one's.
import { UsageError } from '../../core/errors.ts';

/** Characters allowed as-is in a header name; every other byte of an extra's key is percent-encoded. */
const tokenChar = /^[A-Za-z0-9!#$&'*+.^_`|~-]$/;

/** An `as-user-extra` key as an Impersonate-Extra-<key> header name (client-go's headerKeyEscape). */
export function extraHeaderKey(key: string): string {
  let out = '';
  for (const ch of key) {
    if (tokenChar.test(ch)) out += ch;
    else for (const byte of Buffer.from(ch)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return `impersonate-extra-${out}`;
}

const strings = (value: unknown, where: string): string[] => {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw new UsageError(`${where} must be a list of strings`);
  }
  return value as string[];
};

/** The headers for the impersonation fields of `user` (named by `where`); empty when it impersonates no one. */
export function impersonationHeaders(
  user: Record<string, unknown>,
  where: string,
): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  const as = user.as;
  if (as !== undefined && (typeof as !== 'string' || !as))
    throw new UsageError(`${where}: as must be a user name`);
  if (typeof as === 'string') headers['impersonate-user'] = as;
  if (user['as-groups'] !== undefined) {
    const groups = strings(user['as-groups'], `${where}: as-groups`);
    if (groups.length) headers['impersonate-group'] = groups;
  }
  if (user['as-uid'] !== undefined) {
    if (typeof user['as-uid'] !== 'string') throw new UsageError(`${where}: as-uid must be a string`);
    headers['impersonate-uid'] = user['as-uid'];
  }
  const extra = user['as-user-extra'];
  if (extra !== undefined) {
    if (!extra || typeof extra !== 'object' || Array.isArray(extra)) {
      throw new UsageError(`${where}: as-user-extra must map keys to lists of strings`);
    }
    for (const [key, values] of Object.entries(extra)) {
      headers[extraHeaderKey(key)] = strings(values, `${where}: as-user-extra.${key}`);
    }
  }
  // The API server refuses groups, a uid or extras without a user to impersonate; say so before the first request.
  if (!headers['impersonate-user'] && Object.keys(headers).length) {
    throw new UsageError(`${where}: as-groups, as-uid and as-user-extra need as (the user to impersonate)`);
  }
  return headers;
}
