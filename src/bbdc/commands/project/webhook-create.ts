import { webhookCreateCommand } from '../webhook/create.ts';

/** `bbdc project webhook create`: the webhook command for a project named by its key. */
export const command = webhookCreateCommand('project');
