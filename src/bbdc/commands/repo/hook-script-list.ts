import { list } from './admin/hook-scripts.ts';

/** `bbdc repo hook-script list`. */
export const command = list;
