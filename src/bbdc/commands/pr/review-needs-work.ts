import { reviewCommand } from './review.ts';

/** `bbdc pr review needs-work <id>`: marks a pull request as needing work. */
export const command = reviewCommand('needs-work', 'NEEDS_WORK', 'Mark a pull request as needing work');
