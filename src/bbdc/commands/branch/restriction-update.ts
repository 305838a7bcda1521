import { restrictionUpdateCommand } from '../restriction/update.ts';

/** `bbdc branch restriction update`. */
export const command = restrictionUpdateCommand('repo');
