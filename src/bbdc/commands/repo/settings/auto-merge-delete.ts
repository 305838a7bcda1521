import { toggleDeleteCommand } from './toggle-setting.ts';

/** `bbdc repo settings auto-merge delete`. */
export const command = toggleDeleteCommand('auto-merge');
