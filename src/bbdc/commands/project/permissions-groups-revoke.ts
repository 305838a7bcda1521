import { permissionRevoke } from '../permissions/factory.ts';

/** `bbdc project permissions groups revoke`. */
export const command = permissionRevoke('project', 'group');
