import type { AiSkillShowOutput } from '../../../../generated/types/cli/output/ai-skill-show.ts';
import { defineCommand } from '../../command.ts';
import { renderSkill, skillName } from '../../skill/skill-md.ts';
import { readVersion } from '../../version.ts';

/** SKILL.md for this bbdc, its reference generated from the whole registry. */
export async function currentSkill(): Promise<string> {
  const { loadAll } = await import('../../registry.ts');
  return renderSkill(await loadAll(), readVersion());
}

/** `bbdc ai skill show`: prints the agent skill document. */
export const command = defineCommand<Record<string, never>, AiSkillShowOutput>({
  name: 'ai skill show',
  summary: 'Print the agent skill (SKILL.md) for this version of bbdc',
  args: [],
  flags: {},
  outputSchema: 'ai-skill-show',
  effect: 'safe',
  examples: ['bbdc ai skill show > SKILL.md'],
  parse: () => ({}),
  run: async () => ({ name: skillName, version: readVersion(), content: await currentSkill() }),
  human(d, ui) {
    ui.line(d.content.trimEnd());
  },
});
