import { set } from './admin/hook-scripts.ts';

/** `bbdc repo hook-script set`. */
export const command = set;
