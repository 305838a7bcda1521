import { toggleDeleteCommand } from './toggle-setting.ts';

/** `bbdc repo settings auto-decline delete`. */
export const command = toggleDeleteCommand('auto-decline');
