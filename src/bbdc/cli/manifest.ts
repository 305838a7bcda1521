// The generated command manifest: help, completions and argv splitting read it instead of importing every command.
import manifest from '../../../generated/bbdc/commands.json' with { type: 'json' };
import type { CommandInfo } from './command-info.ts';

/** Every command's information, in registry order (regenerate with `npm run generate` after adding one). */
export const commandInfos: CommandInfo[] = manifest.commands as CommandInfo[];
