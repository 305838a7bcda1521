import { permissionRevoke } from '../permissions/factory.ts';

/** `bbdc repo permissions groups revoke`. */
export const command = permissionRevoke('repository', 'group');
