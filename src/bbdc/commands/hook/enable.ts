import { hookToggleCommand } from './toggle.ts';

/** `bbdc hook enable <key>`: turns a hook or merge check on for a repository or project. */
export const command = hookToggleCommand(true);
