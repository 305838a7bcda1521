import { defaultTaskCommands } from '../default-task/commands.ts';

/** `bbdc project default-task list`. */
export const command = defaultTaskCommands('project').list;
