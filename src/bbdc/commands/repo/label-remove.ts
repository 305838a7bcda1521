import { remove } from './admin/labels.ts';

/** `bbdc repo label remove`. */
export const command = remove;
