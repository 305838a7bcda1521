import { defineCommand } from '../command.ts';
import { command as repoClone } from './repo/clone.ts';

/** `bbdc clone`: the same command as `bbdc repo clone`, under the name people type first. */
export const command = defineCommand({
  ...repoClone,
  name: 'clone',
  summary: 'Clone a repository (the same as bbdc repo clone)',
  examples: repoClone.examples?.map((e) => e.replace('bbdc repo clone', 'bbdc clone')),
});
