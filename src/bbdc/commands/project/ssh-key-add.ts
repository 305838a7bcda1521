import { accessKeyCommands } from '../keys/access-key-commands.ts';

/** `bbdc project ssh-key add`. */
export const command = accessKeyCommands('project').add;
