import { list } from './admin/labels.ts';

/** `bbdc repo label list`. */
export const command = list;
