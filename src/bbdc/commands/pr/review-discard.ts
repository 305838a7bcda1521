import { discard } from './review-batch.ts';

/** `bbdc pr review discard`. */
export const command = discard;
