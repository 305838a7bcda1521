import { toggleCommand } from './admin/toggles.ts';

/** `bbdc repo watch`: watches notifications about a repository's pull requests and commits. */
export const command = toggleCommand({
  name: 'repo watch',
  summary: 'Watch a repository (notifications about its pull requests and commits)',
  setting: 'watching',
  value: true,
  // Bitbucket has no read of "am I watching"; the request is idempotent, so it is always sent.
  read: async (_deps, base) => ({ request: { method: 'POST', path: `${base}/watch` } }),
});
