import { permissionGrant } from '../permissions/factory.ts';

/** `bbdc project permissions groups grant`. */
export const command = permissionGrant('project', 'group');
