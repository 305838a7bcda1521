import { complete } from './review-batch.ts';

/** `bbdc pr review complete`. */
export const command = complete;
