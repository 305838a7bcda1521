import { create } from './comment/commands.ts';

/** `bbdc repo comment create`. */
export const command = create;
