import { defaultTaskCommands } from '../default-task/commands.ts';

/** `bbdc project default-task delete`. */
export const command = defaultTaskCommands('project').remove;
