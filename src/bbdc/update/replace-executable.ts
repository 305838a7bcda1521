import { dirname } from 'node:path';
import { RealmforgeError } from '../../core/errors.ts';

/** The file operations a replace needs, injectable so tests can make one of them fail. */
export type FileOps = {
  /** Writes the bytes, flushes them to disk (fsync) and sets the mode. */
  writeDurable(path: string, data: Buffer, mode: number): Promise<void>;
  mode(path: string): Promise<number>;
  link(existing: string, newPath: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  remove(path: string): Promise<void>;
  syncDir(dir: string): Promise<void>;
};

const writePiece = 64 * 1024;

/** Node's fs, with fsync on the new file and on the directory so a crash leaves the old or the new file. */
export async function nodeFileOps(): Promise<FileOps> {
  const fs = await import('node:fs/promises');
  return {
    async writeDurable(path, data, mode) {
      const handle = await fs.open(path, 'w', mode);
      try {
        // In small pieces: Linux keeps what one write() wrote as one page-cache folio, and every process that runs
        // the file maps whole folios, so an executable written in large writes starts with a larger RSS.
        for (let at = 0; at < data.length; ) {
          const piece = Math.min(writePiece, data.length - at);
          at += (await handle.write(data, at, piece, at)).bytesWritten; // a short write goes on from where it ended
        }
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.chmod(path, mode);
    },
    mode: async (path) => (await fs.stat(path)).mode & 0o777,
    link: (existing, newPath) => fs.link(existing, newPath),
    rename: (from, to) => fs.rename(from, to),
    remove: (path) => fs.rm(path, { force: true }),
    async syncDir(dir) {
      const handle = await fs.open(dir, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    },
  };
}

/**
 * Replaces `target` with `data` atomically: the new file is written beside it and fsynced, the old one kept as
 * `<target>.old` (a hard link), then one rename swaps them. `check` runs the installed file; when it or the
 * swap fails, the old file is renamed back and the error names what happened.
 */
export async function replaceExecutable(
  target: string,
  data: Buffer,
  ops: FileOps,
  check: (path: string) => Promise<void>,
): Promise<void> {
  const staged = `${target}.new`;
  const backup = `${target}.old`;
  const fail = (what: string, error: unknown, restored: boolean) =>
    new RealmforgeError(
      'internal',
      `could not replace ${target}: ${what}: ${(error as Error).message}; ${restored ? 'the previous executable was restored' : 'it was not changed'}`,
      { cause: error },
    );
  try {
    await ops.writeDurable(staged, data, await ops.mode(target));
    await ops.remove(backup);
    await ops.link(target, backup);
  } catch (error) {
    await ops.remove(staged).catch(() => {});
    await ops.remove(backup).catch(() => {});
    throw fail('writing the new executable beside it failed', error, false);
  }
  try {
    await ops.rename(staged, target);
    await ops.syncDir(dirname(target));
  } catch (error) {
    await rollback(target, backup, ops);
    await ops.remove(staged).catch(() => {});
    throw fail('swapping in the new executable failed', error, true);
  }
  try {
    await check(target);
  } catch (error) {
    await rollback(target, backup, ops);
    throw fail('the new executable did not start', error, true);
  }
  await ops.remove(backup).catch(() => {});
}

async function rollback(target: string, backup: string, ops: FileOps): Promise<void> {
  try {
    await ops.rename(backup, target);
    await ops.syncDir(dirname(target));
  } catch (error) {
    throw new RealmforgeError(
      'internal',
      `could not restore ${target} from ${backup} (${(error as Error).message}); copy ${backup} back by hand`,
      { cause: error },
    );
  }
}
