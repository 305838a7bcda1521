import { permissionList } from '../permissions/factory.ts';

/** `bbdc project permissions groups list`. */
export const command = permissionList('project', 'group');
