import { defaultTaskCommands } from '../default-task/commands.ts';

/** `bbdc repo default-task delete`. */
export const command = defaultTaskCommands('repo').remove;
