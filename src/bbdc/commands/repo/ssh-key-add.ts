import { accessKeyCommands } from '../keys/access-key-commands.ts';

/** `bbdc repo ssh-key add`. */
export const command = accessKeyCommands('repo').add;
