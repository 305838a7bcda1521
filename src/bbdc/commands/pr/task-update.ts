import { textUpdateCommand } from './comment-update.ts';

/** `bbdc pr task update <id> <task> --body TEXT`: edits the text of a task (bb's `pr task update`). */
export const command = textUpdateCommand(
  'task',
  'bbdc pr task update 42 1234 --body "Add a test for the empty list"',
);
