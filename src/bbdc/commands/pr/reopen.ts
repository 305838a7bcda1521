import { stateChangeCommand } from './state-change.ts';

/** `bbdc pr reopen <id>`: reopens a declined pull request. */
export const command = stateChangeCommand({
  verb: 'reopen',
  past: 'Reopened',
  needs: 'DECLINED',
  summary: 'Reopen a declined pull request',
  comment: false,
});
