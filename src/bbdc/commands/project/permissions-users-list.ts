import { permissionList } from '../permissions/factory.ts';

/** `bbdc project permissions users list`. */
export const command = permissionList('project', 'user');
