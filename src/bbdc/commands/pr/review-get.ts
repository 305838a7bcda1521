import { get } from './review-batch.ts';

/** `bbdc pr review get`. */
export const command = get;
