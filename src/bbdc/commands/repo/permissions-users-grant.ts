import { permissionGrant } from '../permissions/factory.ts';

/** `bbdc repo permissions users grant`. */
export const command = permissionGrant('repository', 'user');
