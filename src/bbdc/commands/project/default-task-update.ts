import { defaultTaskCommands } from '../default-task/commands.ts';

/** `bbdc project default-task update`. */
export const command = defaultTaskCommands('project').update;
