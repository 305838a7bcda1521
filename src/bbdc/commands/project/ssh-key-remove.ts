import { accessKeyCommands } from '../keys/access-key-commands.ts';

/** `bbdc project ssh-key remove`. */
export const command = accessKeyCommands('project').remove;
