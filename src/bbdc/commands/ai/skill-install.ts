import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AiSkillInstallOutput } from '../../../../generated/types/cli/output/ai-skill-install.ts';
import { defineCommand } from '../../command.ts';
import { makePlan } from '../../output/plan.ts';
import { locationFlags, parseLocation, skillFile } from '../../skill/location.ts';
import { readVersion } from '../../version.ts';
import { currentSkill } from './skill-show.ts';

type Options = { global: boolean; dir?: string };

function predict(path: string, content: string): AiSkillInstallOutput['action'] {
  if (!existsSync(path)) return 'created';
  return readFileSync(path, 'utf8') === content ? 'unchanged' : 'updated';
}

/** `bbdc ai skill install [--global]`: writes SKILL.md where coding agents look for skills. */
export const command = defineCommand<Options, AiSkillInstallOutput>({
  name: 'ai skill install',
  summary: 'Install the agent skill into the project or, with --global, for your user',
  args: [],
  flags: locationFlags,
  outputSchema: 'ai-skill-install',
  effect: 'mutating',
  examples: ['bbdc ai skill install', 'bbdc ai skill install --global --dry-run'],
  parse: ({ flags }) => parseLocation(flags),
  async plan(o, deps) {
    const path = await skillFile(deps, o);
    const predicted = predict(path, await currentSkill());
    return makePlan({
      intent: `bbdc ai skill install${o.global ? ' --global' : ''}`,
      target: { type: 'file', id: path },
      action: { type: 'config', description: `write the bbdc ${readVersion()} skill to ${path}` },
      predictedAction: predicted === 'created' ? 'create' : predicted === 'updated' ? 'update' : 'no-op',
      reasons: [],
      blockingReasons: [],
    });
  },
  async run(o, deps) {
    const path = await skillFile(deps, o);
    const content = await currentSkill();
    const action = predict(path, content);
    if (action !== 'unchanged') {
      mkdirSync(dirname(path), { recursive: true });
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, content);
      renameSync(tmp, path);
    }
    return { path, action, version: readVersion() };
  },
  human(d, ui) {
    const verb = { created: 'Installed', updated: 'Updated', unchanged: 'Already up to date:' }[d.action];
    ui.line(`${verb} the bbdc ${d.version} skill at ${d.path}`);
  },
});
