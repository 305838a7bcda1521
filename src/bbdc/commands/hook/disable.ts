import { hookToggleCommand } from './toggle.ts';

/** `bbdc hook disable <key>`: turns a hook or merge check off for a repository or project. */
export const command = hookToggleCommand(false);
