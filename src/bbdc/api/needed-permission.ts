// Which Bitbucket permission a refused request needed, read from the request itself, so that a 403 names it
// instead of sending the user to log in again (a new token carries the same account's permissions).

const adminReads = /^\/(permissions|hooks|webhooks)(\/|$)/;
const adminWrites =
  /^\/(permissions|settings|hooks|webhooks|default-reviewers|reviewer-groups|conditions?|required-builds)(\/|$)/;
// Anyone who can read a repository may comment on, review and add tasks to its pull requests.
const readerActions = /^\/pull-requests\/\d+\/(comments|blocker-comments|participants|tasks|approve)(\/|$)/;

/** `REPO_WRITE on repository PROJ/api`, `PROJECT_ADMIN on project PROJ`, `PROJECT_CREATE`; undefined if unknown. */
export function neededPermission(method: string, path: string): string | undefined {
  const reads = method === 'GET' || method === 'HEAD';
  const bare = path.split('?')[0].replace(/^.*?\/rest\/[^/]+\/(latest|1\.0)/, '');
  const repo = /^\/projects\/([^/]+)\/repos\/([^/]+)(.*)$/.exec(bare);
  if (repo) {
    const [, key, slug, rest] = repo;
    const where = `on repository ${decodeURIComponent(key)}/${decodeURIComponent(slug)}`;
    if (reads) return `${adminReads.test(rest) ? 'REPO_ADMIN' : 'REPO_READ'} ${where}`;
    if (rest === '' || adminWrites.test(rest)) return `REPO_ADMIN ${where}`;
    if (readerActions.test(rest)) return `REPO_READ ${where}`;
    return `REPO_WRITE ${where}`;
  }
  const project = /^\/projects\/([^/]+)(.*)$/.exec(bare);
  if (project) {
    const [, key, rest] = project;
    const where = `on project ${decodeURIComponent(key)}`;
    if (reads && !adminReads.test(rest)) return `PROJECT_READ ${where}`;
    return `PROJECT_ADMIN ${where}`;
  }
  if (bare === '/projects' && method === 'POST') return 'PROJECT_CREATE';
  return undefined;
}
