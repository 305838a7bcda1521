// Reading a repository's files without a clone: raw bytes, a directory's children, a file's lines and blame.
import type { BitbucketClient } from './client.ts';
import { filePath } from './path.ts';
import type { RepoRef } from './pull-requests.ts';
import { repoPath } from './repositories.ts';

/** The REST path of a file or directory: `/browse/src/main.ts`, `/raw/...`; the root when `path` is empty. */
export function contentPath(repo: RepoRef, kind: 'browse' | 'raw', path: string): string {
  const tail = path.replace(/^\/+|\/+$/g, '');
  return `${repoPath(repo.project, repo.slug)}/${kind}${tail ? `/${filePath('path', tail)}` : ''}`;
}

/** The exact bytes of a file at a ref (default: the default branch). */
export function readRaw(client: BitbucketClient, repo: RepoRef, path: string, ref?: string): Promise<Buffer> {
  return client.bytes(contentPath(repo, 'raw', path), { at: ref });
}

/** One line of blame as Bitbucket returns it (a span of `spannedLines` lines starting at `lineNumber`). */
export type RestBlame = {
  author: { name: string; emailAddress?: string; displayName?: string };
  authorTimestamp: number;
  commitId?: string;
  commitHash?: string;
  displayCommitId?: string;
  displayCommitHash?: string;
  lineNumber: number;
  spannedLines: number;
};

/** A child of a directory as browse returns it. */
export type RestChild = {
  path: { toString: string; name?: string };
  type: 'FILE' | 'DIRECTORY' | 'SUBMODULE';
  size?: number;
};

/** What browse answers: a directory's children page, or a page of a file's lines, or `binary`. */
export type RestBrowse = {
  children?: { values: RestChild[]; isLastPage: boolean; nextPageStart?: number };
  lines?: { text: string }[];
  isLastPage?: boolean;
  nextPageStart?: number;
  binary?: boolean;
};

/** The file's text encoded for JSON: as UTF-8 when it is valid text, else as base64. */
export function encodeContent(data: Buffer): { encoding: 'utf-8' | 'base64'; content: string } {
  const text = data.toString('utf8');
  return !data.includes(0) && Buffer.from(text, 'utf8').equals(data)
    ? { encoding: 'utf-8', content: text }
    : { encoding: 'base64', content: data.toString('base64') };
}
