import { accessKeyCommands } from '../keys/access-key-commands.ts';

/** `bbdc repo ssh-key list`. */
export const command = accessKeyCommands('repo').list;
