import { toggleGetCommand } from './toggle-setting.ts';

/** `bbdc repo settings auto-merge get`. */
export const command = toggleGetCommand('auto-merge');
