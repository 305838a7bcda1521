import { permissionRevoke } from '../permissions/factory.ts';

/** `bbdc repo permissions users revoke`. */
export const command = permissionRevoke('repository', 'user');
