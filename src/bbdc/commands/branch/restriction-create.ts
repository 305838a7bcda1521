import { restrictionCommands } from '../restriction/commands.ts';

/** `bbdc branch restriction create`. */
export const command = restrictionCommands('repo').create;
