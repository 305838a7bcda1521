import { catCommand } from '../cat-command.ts';

/** `bbdc repo browse raw <path>`: bb's name for `repo cat`. */
export const command = catCommand('repo browse raw');
