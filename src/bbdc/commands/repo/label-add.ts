import { add } from './admin/labels.ts';

/** `bbdc repo label add`. */
export const command = add;
