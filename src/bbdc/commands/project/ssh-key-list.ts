import { accessKeyCommands } from '../keys/access-key-commands.ts';

/** `bbdc project ssh-key list`. */
export const command = accessKeyCommands('project').list;
