import { existsSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AiSkillRemoveOutput } from '../../../../generated/types/cli/output/ai-skill-remove.ts';
import { defineCommand } from '../../command.ts';
import { makePlan } from '../../output/plan.ts';
import { locationFlags, parseLocation, skillFile } from '../../skill/location.ts';

type Options = { global: boolean; dir?: string };

/** `bbdc ai skill remove [--global]`: deletes the installed SKILL.md (and its directory when that is left empty). */
export const command = defineCommand<Options, AiSkillRemoveOutput>({
  name: 'ai skill remove',
  summary: 'Remove the installed agent skill',
  args: [],
  flags: locationFlags,
  outputSchema: 'ai-skill-remove',
  effect: 'mutating',
  examples: ['bbdc ai skill remove --global'],
  parse: ({ flags }) => parseLocation(flags),
  async plan(o, deps) {
    const path = await skillFile(deps, o);
    return makePlan({
      intent: `bbdc ai skill remove${o.global ? ' --global' : ''}`,
      target: { type: 'file', id: path },
      action: { type: 'config', description: `remove ${path}` },
      predictedAction: existsSync(path) ? 'delete' : 'no-op',
      reasons: [],
      blockingReasons: [],
    });
  },
  async run(o, deps) {
    const path = await skillFile(deps, o);
    if (!existsSync(path)) return { path, removed: false };
    rmSync(path);
    if (readdirSync(dirname(path)).length === 0) rmdirSync(dirname(path));
    return { path, removed: true };
  },
  human(d, ui) {
    ui.line(d.removed ? `Removed ${d.path}` : `No skill installed at ${d.path}; nothing to remove`);
  },
});
