import { defaultTaskCommands } from '../default-task/commands.ts';

/** `bbdc project default-task add`. */
export const command = defaultTaskCommands('project').add;
