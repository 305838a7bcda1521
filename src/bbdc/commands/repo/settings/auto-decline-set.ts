import { toggleSetCommand } from './toggle-setting.ts';

/** `bbdc repo settings auto-decline set`. */
export const command = toggleSetCommand('auto-decline');
