// Where the test environment keeps its cache, its state and its temporary directories.
import { join } from 'node:path';

/** The repository root (two levels above this file). */
export const repoRoot = join(import.meta.dirname, '..', '..');

/** The cache of built binaries and downloads: `REALMFORGE_CACHE_DIR` or `.cache/` in the repository. */
export function cacheDir(): string {
  return process.env.REALMFORGE_CACHE_DIR || join(repoRoot, '.cache');
}

/** The state file of the running environment: `REALMFORGE_TESTENV_STATE` or one in the cache. */
export function stateFile(): string {
  return process.env.REALMFORGE_TESTENV_STATE || join(cacheDir(), 'testenv', 'state.json');
}

/** The shared reference directory beside the repository (absent in a bare clone). */
export const sharedReferenceDir = join(repoRoot, '..', 'shared', 'reference');
