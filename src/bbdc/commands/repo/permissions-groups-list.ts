import { permissionList } from '../permissions/factory.ts';

/** `bbdc repo permissions groups list`. */
export const command = permissionList('repository', 'group');
