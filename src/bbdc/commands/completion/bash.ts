import { completionCommand } from './shell.ts';

/** `bbdc completion bash`. */
export const command = completionCommand('bash');
