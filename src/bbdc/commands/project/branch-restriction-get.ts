import { restrictionCommands } from '../restriction/commands.ts';

/** `bbdc project branch-restriction get`. */
export const command = restrictionCommands('project').get;
