import { permissionGrant } from '../permissions/factory.ts';

/** `bbdc repo permissions groups grant`. */
export const command = permissionGrant('repository', 'group');
