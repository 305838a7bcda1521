import { completionCommand } from './shell.ts';

/** `bbdc completion zsh`. */
export const command = completionCommand('zsh');
