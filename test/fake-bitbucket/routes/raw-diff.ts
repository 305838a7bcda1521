// The raw (git) diff between two commits of the fake's history: each changed file as one whole-file hunk, which is
// a valid unified diff (git would find smaller hunks; the counts bbdc derives stay right).
import { isBinary, treeAt } from '../content-state.ts';
import { gitOf, resolveRef } from '../core-state.ts';
import { bitbucketError } from '../route-types.ts';
import { type DeclaredRoute, repoRoute } from './declared.ts';

const lines = (b: Buffer | undefined) => (b ? b.toString('utf8').replace(/\n$/, '').split('\n') : []);

function fileDiff(path: string, before: Buffer | undefined, after: Buffer | undefined): string {
  const head = [`diff --git a/${path} b/${path}`];
  if (!before) head.push('new file mode 100644');
  if (!after) head.push('deleted file mode 100644');
  if ((before && isBinary(before)) || (after && isBinary(after)))
    return `${head.join('\n')}\nBinary files ${before ? `a/${path}` : '/dev/null'} and ${after ? `b/${path}` : '/dev/null'} differ\n`;
  head.push(before ? `--- a/${path}` : '--- /dev/null', after ? `+++ b/${path}` : '+++ /dev/null');
  const a = lines(before);
  const b = lines(after);
  head.push(`@@ -${a.length ? 1 : 0},${a.length} +${b.length ? 1 : 0},${b.length} @@`);
  return `${[...head, ...a.map((l) => `-${l}`), ...b.map((l) => `+${l}`)].join('\n')}\n`;
}

/** Routes keyed by operationId, each with the permission Bitbucket requires. */
export const rawDiffRoutes: Record<string, DeclaredRoute> = {
  streamRawDiff: repoRoute('REPO_READ', (ctx, repo) => {
    const git = gitOf(ctx.state, repo);
    const untilRef = ctx.query.get('until') ?? '';
    const until = resolveRef(git, untilRef);
    if (!until)
      return bitbucketError(
        404,
        `Commit '${untilRef}' does not exist in this repository.`,
        'com.atlassian.bitbucket.commit.NoSuchCommitException',
      );
    const sinceRef = ctx.query.get('since');
    const since = sinceRef ? resolveRef(git, sinceRef) : git.commits.get(until)!.parents[0];
    if (sinceRef && !since)
      return bitbucketError(
        404,
        `Commit '${sinceRef}' does not exist in this repository.`,
        'com.atlassian.bitbucket.commit.NoSuchCommitException',
      );
    const a = since ? treeAt(git, since, repo.slug) : new Map();
    const b = treeAt(git, until, repo.slug);
    const paths = [...new Set([...a.keys(), ...b.keys()])].sort();
    const text = paths
      .filter((p) => !a.get(p)?.data.equals(b.get(p)?.data ?? Buffer.alloc(0)) || !b.has(p))
      .map((p) => fileDiff(p, a.get(p)?.data, b.get(p)?.data))
      .join('');
    return { status: 200, raw: Buffer.from(text), headers: { 'content-type': 'text/plain;charset=UTF-8' } };
  }),
};
