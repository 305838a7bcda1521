import { accessKeyCommands } from '../keys/access-key-commands.ts';

/** `bbdc repo ssh-key remove`. */
export const command = accessKeyCommands('repo').remove;
