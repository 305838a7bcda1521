import { remove } from './admin/hook-scripts.ts';

/** `bbdc repo hook-script remove`. */
export const command = remove;
