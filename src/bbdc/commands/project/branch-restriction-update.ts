import { restrictionUpdateCommand } from '../restriction/update.ts';

/** `bbdc project branch-restriction update`. */
export const command = restrictionUpdateCommand('project');
