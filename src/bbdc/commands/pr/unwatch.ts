import { watchCommand } from './watch-change.ts';

/** `bbdc pr unwatch <id>`. */
export const command = watchCommand(false);
