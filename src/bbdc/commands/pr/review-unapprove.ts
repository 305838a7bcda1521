import { reviewCommand } from './review.ts';

/** `bbdc pr review unapprove <id>`: withdraws your approval or needs-work. */
export const command = reviewCommand(
  'unapprove',
  'UNAPPROVED',
  'Withdraw your approval (or needs work) from a pull request',
);
