import { defaultTaskCommands } from '../default-task/commands.ts';

/** `bbdc repo default-task update`. */
export const command = defaultTaskCommands('repo').update;
