import { toggleCommand } from './admin/toggles.ts';

/** `bbdc repo unwatch`: unwatches notifications about a repository's pull requests and commits. */
export const command = toggleCommand({
  name: 'repo unwatch',
  summary: 'Stop watching a repository',
  setting: 'watching',
  value: false,
  // Bitbucket has no read of "am I watching"; the request is idempotent, so it is always sent.
  read: async (_deps, base) => ({ request: { method: 'DELETE', path: `${base}/watch` } }),
});
