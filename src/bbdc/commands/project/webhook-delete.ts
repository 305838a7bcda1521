import { webhookDeleteCommand } from '../webhook/delete.ts';

/** `bbdc project webhook delete`: the webhook command for a project named by its key. */
export const command = webhookDeleteCommand('project');
