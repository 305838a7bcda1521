import { restrictionCommands } from '../restriction/commands.ts';

/** `bbdc branch restriction list`. */
export const command = restrictionCommands('repo').list;
