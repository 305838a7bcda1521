import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file below dir whose name `keep` accepts, sorted; directories that `skipDir` names are not entered. */
export function walkFiles(
  dir: string,
  keep: (name: string) => boolean,
  skipDir: (name: string) => boolean = () => false,
): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return skipDir(name) ? [] : walkFiles(path, keep, skipDir);
      return keep(name) ? [path] : [];
    });
}
