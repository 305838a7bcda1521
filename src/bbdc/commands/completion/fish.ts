import { completionCommand } from './shell.ts';

/** `bbdc completion fish`. */
export const command = completionCommand('fish');
