import { catCommand } from './cat-command.ts';

/** `bbdc repo cat <path>`. */
export const command = catCommand('repo cat');
