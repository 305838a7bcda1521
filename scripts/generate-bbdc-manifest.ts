// Writes generated/bbdc/commands.json from the bbdc command registry (every command module is imported here, once,
// at build time, so that `bbdc --help` and completions at run time import none).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeCommand, renderManifest } from '../src/bbdc/cli/command-info.ts';
import { topHelp } from '../src/bbdc/cli/help.ts';
import { loadAll } from '../src/bbdc/registry.ts';

/** The placeholder for the version in help.txt, filled in when it is printed. */
export const versionPlaceholder = '{{version}}';

/**
 * Writes commands.json and help.txt (`bbdc --help`, rendered by cli/help.ts, which bin/bbdc.js and main.ts print
 * without loading any other bbdc code) into outDir; returns the paths written.
 */
export async function generateBbdcManifest(outDir: string): Promise<string[]> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const commands = await loadAll();
  const manifest = join(outDir, 'commands.json');
  writeFileSync(manifest, renderManifest(commands));
  const help = join(outDir, 'help.txt');
  writeFileSync(help, `${topHelp(commands.map(describeCommand), versionPlaceholder)}\n`);
  return [manifest, help];
}

if (import.meta.main) {
  await generateBbdcManifest(join(import.meta.dirname, '..', 'generated', 'bbdc'));
  console.log('generated generated/bbdc/commands.json and help.txt');
}
