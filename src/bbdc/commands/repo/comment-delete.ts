import { remove } from './comment/commands.ts';

/** `bbdc repo comment delete`. */
export const command = remove;
