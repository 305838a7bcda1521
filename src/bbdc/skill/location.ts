import { join, resolve } from 'node:path';
import type { CommandDeps } from '../command.ts';
import { skillName } from './skill-md.ts';

/** Where SKILL.md goes: `--dir`'s skills directory, `~/.claude/skills` with --global, else the project's. */
export async function skillFile(
  deps: Pick<CommandDeps, 'homeDir' | 'cwd' | 'git'>,
  options: { global: boolean; dir?: string },
): Promise<string> {
  if (options.dir) return join(resolve(deps.cwd, options.dir), skillName, 'SKILL.md');
  if (options.global) return join(deps.homeDir, '.claude', 'skills', skillName, 'SKILL.md');
  const top = await deps.git(['rev-parse', '--show-toplevel'], deps.cwd);
  const root = top.code === 0 && top.stdout.trim() ? top.stdout.trim() : deps.cwd;
  return join(root, '.claude', 'skills', skillName, 'SKILL.md');
}

/** The flags install and remove share. */
export const locationFlags = {
  global: {
    type: 'boolean' as const,
    description: 'Use ~/.claude/skills instead of the project (the git top level, or the current directory)',
  },
  dir: { type: 'string' as const, value: 'DIR', description: 'Use this skills directory instead' },
};

/** Reads the location flags. */
export function parseLocation(flags: Record<string, unknown>): { global: boolean; dir?: string } {
  return { global: flags.global === true, ...(flags.dir ? { dir: String(flags.dir) } : {}) };
}
