import { permissionGrant } from '../permissions/factory.ts';

/** `bbdc project permissions users grant`. */
export const command = permissionGrant('project', 'user');
