import { permissionRevoke } from '../permissions/factory.ts';

/** `bbdc project permissions users revoke`. */
export const command = permissionRevoke('project', 'user');
