import { update } from './comment/commands.ts';

/** `bbdc repo comment update`. */
export const command = update;
