import { webhookTestCommand } from '../webhook/test.ts';

/** `bbdc project webhook test <project> <id>`: the webhook command for a project named by its key. */
export const command = webhookTestCommand('project');
