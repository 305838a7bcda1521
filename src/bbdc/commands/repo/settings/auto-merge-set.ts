import { toggleSetCommand } from './toggle-setting.ts';

/** `bbdc repo settings auto-merge set`. */
export const command = toggleSetCommand('auto-merge');
