// Writes generated/bbdc/commands.json from the bbdc command registry (every command module is imported here, once,
// at build time, so that `bbdc --help` and completions at run time import none).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderManifest } from '../src/bbdc/cli/command-info.ts';
import { loadAll } from '../src/bbdc/registry.ts';

/** Writes commands.json into outDir; returns the paths written. */
export async function generateBbdcManifest(outDir: string): Promise<string[]> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const target = join(outDir, 'commands.json');
  writeFileSync(target, renderManifest(await loadAll()));
  return [target];
}

if (import.meta.main) {
  await generateBbdcManifest(join(import.meta.dirname, '..', 'generated', 'bbdc'));
  console.log('generated generated/bbdc/commands.json');
}
