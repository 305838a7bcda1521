import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The directory of the realmforge package (holding schemas/ and package.json), from source or from dist/. */
export function packageRoot(from: string = import.meta.dirname): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'realmforge') return dir;
  }
  throw new Error(`cannot find the realmforge package root above ${from}`);
}

/** The package's version from package.json. */
export function packageVersion(): string {
  return JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')).version;
}
