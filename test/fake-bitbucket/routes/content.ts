// Routes that read files without a clone: raw bytes, browse (a directory's children, a file's lines, blame).
import { blame, isBinary, treeAt } from '../content-state.ts';
import { gitOf, resolveRef } from '../core-state.ts';
import { bitbucketError, page, type RouteContext, type RouteResult } from '../route-types.ts';
import type { FakeRepo } from '../state.ts';
import { type DeclaredRoute, repoRoute } from './declared.ts';

const noPath = (path: string, at: string) =>
  bitbucketError(
    404,
    `The path "${path}" does not exist at revision "${at}"`,
    'com.atlassian.bitbucket.content.NoSuchPathException',
  );

function pathJson(path: string) {
  const components = path ? path.split('/') : [];
  return { components, name: components.at(-1) ?? '', toString: path };
}

function person(name: string, ctx: RouteContext) {
  const u = ctx.state.users.find((x) => x.name === name);
  return { name, emailAddress: u?.email ?? `${name}@example.test`, displayName: u?.displayName ?? name };
}

function browse(ctx: RouteContext, repo: FakeRepo): RouteResult {
  const git = gitOf(ctx.state, repo);
  const at = ctx.query.get('at') ?? git.defaultBranch;
  const commit = resolveRef(git, at);
  if (!commit)
    return bitbucketError(
      404,
      `Commit '${at}' does not exist in this repository.`,
      'com.atlassian.bitbucket.commit.NoSuchCommitException',
    );
  const path = (ctx.params.path ?? '').replace(/\/$/, '');
  const tree = treeAt(git, commit, repo.slug);
  const file = tree.get(path);
  if (file) {
    if (ctx.query.get('type') === 'true') return { status: 200, body: { type: 'FILE' } };
    const blamed = ctx.query.get('blame') !== null && ctx.query.get('blame') !== 'false';
    if (blamed && ctx.query.get('noContent') === 'true') {
      const by = blame(git, commit, path, repo.slug);
      const spans = by.map((c, i) => ({
        author: person(c.author, ctx),
        authorTimestamp: c.timestamp,
        committer: person(c.author, ctx),
        committerTimestamp: c.timestamp,
        commitHash: c.id,
        displayCommitHash: c.id.slice(0, 11),
        commitId: c.id,
        displayCommitId: c.id.slice(0, 11),
        fileName: path,
        lineNumber: i + 1,
        spannedLines: 1,
      }));
      return { status: 200, body: spans };
    }
    if (isBinary(file.data)) return { status: 200, body: { binary: true, path: pathJson(path) } };
    const lines = file.data.toString('utf8').replace(/\n$/, '').split('\n');
    // Bitbucket pages a file's lines like any list, but names them `lines`.
    const { values, ...paging } = page(
      lines.map((text) => ({ text })),
      ctx.query,
    ).body as Record<string, unknown>;
    return { status: 200, body: { lines: values, ...paging, path: pathJson(path), revision: at } };
  }
  const prefix = path ? `${path}/` : '';
  const children = new Map<string, { type: 'FILE' | 'DIRECTORY'; size?: number }>();
  for (const [p, f] of tree) {
    if (!p.startsWith(prefix)) continue;
    const [head, ...rest] = p.slice(prefix.length).split('/');
    children.set(head, rest.length ? { type: 'DIRECTORY' } : { type: 'FILE', size: f.data.length });
  }
  if (!children.size) return noPath(path, at);
  if (ctx.query.get('type') === 'true') return { status: 200, body: { type: 'DIRECTORY' } };
  const sorted = [...children].sort(([a, x], [b, y]) =>
    x.type === y.type ? a.localeCompare(b) : x.type === 'DIRECTORY' ? -1 : 1,
  );
  const values = sorted.map(([name, c]) => ({
    path: pathJson(name),
    type: c.type,
    ...(c.size !== undefined && { size: c.size }),
  }));
  return {
    status: 200,
    body: { path: pathJson(path), revision: at, children: page(values, ctx.query).body },
  };
}

/** Routes keyed by operationId, each with the permission Bitbucket requires (read access to the repository). */
export const contentRoutes: Record<string, DeclaredRoute> = {
  getContent: repoRoute('REPO_READ', browse),
  getContent_1: repoRoute('REPO_READ', browse),
  streamRaw: repoRoute('REPO_READ', (ctx, repo) => {
    const git = gitOf(ctx.state, repo);
    const at = ctx.query.get('at') ?? git.defaultBranch;
    const commit = resolveRef(git, at);
    const file = commit ? treeAt(git, commit, repo.slug).get(ctx.params.path) : undefined;
    return file ? { status: 200, raw: file.data } : noPath(ctx.params.path, at);
  }),
};
