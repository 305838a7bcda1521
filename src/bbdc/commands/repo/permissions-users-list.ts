import { permissionList } from '../permissions/factory.ts';

/** `bbdc repo permissions users list`. */
export const command = permissionList('repository', 'user');
