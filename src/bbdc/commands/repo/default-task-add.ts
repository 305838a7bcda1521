import { defaultTaskCommands } from '../default-task/commands.ts';

/** `bbdc repo default-task add`. */
export const command = defaultTaskCommands('repo').add;
