import { restrictionCommands } from '../restriction/commands.ts';

/** `bbdc branch restriction delete`. */
export const command = restrictionCommands('repo').remove;
