import { list } from './comment/commands.ts';

/** `bbdc repo comment list`. */
export const command = list;
