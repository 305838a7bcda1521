import { webhookUpdateCommand } from '../webhook/update.ts';

/** `bbdc project webhook update <project> <id>`: the webhook command for a project named by its key. */
export const command = webhookUpdateCommand('project');
