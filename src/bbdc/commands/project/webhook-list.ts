import { webhookListCommand } from '../webhook/list.ts';

/** `bbdc project webhook list`: the webhook command for a project named by its key. */
export const command = webhookListCommand('project');
