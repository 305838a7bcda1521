import { restrictionCommands } from '../restriction/commands.ts';

/** `bbdc branch restriction get`. */
export const command = restrictionCommands('repo').get;
