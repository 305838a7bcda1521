// File contents for the fake's git data: what each seeded commit wrote, the tree at any commit, and blame.
import { type FakeCommit, type FakeGit, history } from './core-state.ts';

/** The bytes of assets/logo.png: a PNG signature and every byte value, so any text decoding would change it. */
export const logoBytes = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
]);

/** What a commit wrote to a path (the seeded history's content, else a line naming the commit). */
function written(c: FakeCommit, path: string, slug: string): Buffer {
  if (path === 'assets/logo.png') return logoBytes;
  if (path === 'README.md') return Buffer.from(`# ${slug}\n\nThe ${slug} repository.\n`);
  if (path === 'src/main.ts') return Buffer.from("export function main() {\n  return 'hello';\n}\n");
  if (path === 'docs/guide.md')
    return Buffer.from(
      c.parents.length > 1 ? '# Guide\n\nRead the code.\nThen run it.\n' : '# Guide\n\nRead the code.\n',
    );
  return Buffer.from(`${path} written by ${c.id.slice(0, 7)}\n`);
}

/** The files at a commit: every path written by the commits it reaches, the newest write winning. */
export function treeAt(
  git: FakeGit,
  commit: string,
  slug: string,
): Map<string, { data: Buffer; by: FakeCommit }> {
  const tree = new Map<string, { data: Buffer; by: FakeCommit }>();
  for (const c of history(git, commit).reverse())
    for (const path of c.paths) tree.set(path, { data: written(c, path, slug), by: c });
  return tree;
}

/** True when the bytes are not text (a NUL byte, or not valid UTF-8). */
export function isBinary(data: Buffer): boolean {
  return data.includes(0) || !Buffer.from(data.toString('utf8'), 'utf8').equals(data);
}

/** For each line of `path` at `commit`, the oldest commit in its history where that line was already the same. */
export function blame(git: FakeGit, commit: string, path: string, slug: string): FakeCommit[] {
  const versions = history(git, commit)
    .filter((c) => c.paths.includes(path))
    .map((c) => ({ c, lines: written(c, path, slug).toString('utf8').replace(/\n$/, '').split('\n') }));
  const current = versions[0]?.lines ?? [];
  return current.map((text, i) => {
    let by = versions[0].c;
    for (const v of versions.slice(1)) {
      if (v.lines[i] !== text) break;
      by = v.c;
    }
    return by;
  });
}
