import { restrictionCommands } from '../restriction/commands.ts';

/** `bbdc project branch-restriction list`. */
export const command = restrictionCommands('project').list;
