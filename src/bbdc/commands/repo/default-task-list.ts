import { defaultTaskCommands } from '../default-task/commands.ts';

/** `bbdc repo default-task list`. */
export const command = defaultTaskCommands('repo').list;
