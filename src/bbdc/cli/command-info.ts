// What help, completions and "did you mean" need to know about a command, without importing its module: the
// generated manifest (generated/bbdc/commands.json, `npm run generate`) holds one of these per registry entry.
import type { CommandDefinition } from '../command.ts';

/** A command's description without its code. */
export type CommandInfo = Pick<
  CommandDefinition,
  | 'name'
  | 'summary'
  | 'description'
  | 'args'
  | 'flags'
  | 'passthrough'
  | 'outputSchema'
  | 'effect'
  | 'examples'
> & {
  /** Whether a mutating command can show a --dry-run plan. */
  hasPlan: boolean;
};

/** The information of one definition, with keys in a fixed order so the manifest is byte-stable. */
export function describeCommand(c: CommandDefinition<never, never>): CommandInfo {
  return {
    name: c.name,
    summary: c.summary,
    ...(c.description !== undefined && { description: c.description }),
    args: c.args,
    flags: c.flags,
    ...(c.passthrough !== undefined && { passthrough: c.passthrough }),
    outputSchema: c.outputSchema,
    effect: c.effect,
    ...(c.examples !== undefined && { examples: c.examples }),
    hasPlan: typeof c.plan === 'function',
  };
}

/** The manifest file's text for the given definitions (registry order). */
export function renderManifest(commands: CommandDefinition<never, never>[]): string {
  return `${JSON.stringify({ commands: commands.map(describeCommand) }, null, 1)}\n`;
}
