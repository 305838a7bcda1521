import { restrictionCommands } from '../restriction/commands.ts';

/** `bbdc project branch-restriction create`. */
export const command = restrictionCommands('project').create;
