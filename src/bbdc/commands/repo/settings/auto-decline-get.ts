import { toggleGetCommand } from './toggle-setting.ts';

/** `bbdc repo settings auto-decline get`. */
export const command = toggleGetCommand('auto-decline');
