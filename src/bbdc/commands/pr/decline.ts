import { stateChangeCommand } from './state-change.ts';

/** `bbdc pr decline <id>`: declines an open pull request, optionally saying why. */
export const command = stateChangeCommand({
  verb: 'decline',
  past: 'Declined',
  needs: 'OPEN',
  summary: 'Decline a pull request',
  comment: true,
});
