import { webhookStatsCommand } from '../webhook/stats.ts';

/** `bbdc project webhook stats <project> <id>`. */
export const command = webhookStatsCommand('project');
