import { reviewCommand } from './review.ts';

/** `bbdc pr review approve <id>`: approves a pull request as yourself. */
export const command = reviewCommand('approve', 'APPROVED', 'Approve a pull request');
