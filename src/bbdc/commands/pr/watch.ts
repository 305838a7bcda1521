import { watchCommand } from './watch-change.ts';

/** `bbdc pr watch <id>`. */
export const command = watchCommand(true);
