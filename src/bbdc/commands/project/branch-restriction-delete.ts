import { restrictionCommands } from '../restriction/commands.ts';

/** `bbdc project branch-restriction delete`. */
export const command = restrictionCommands('project').remove;
