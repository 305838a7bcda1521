import { parseId } from '../../api/ids.ts';
import { resolveScope } from '../../cli/scope.ts';
import type { ArgSpec, CommandDeps } from '../../command.ts';
import { normalizeProjectKey } from '../../config/remote-url.ts';

/** Repository webhooks (`bbdc webhook ...`, repository from -R or git) or project ones (`bbdc project webhook ...`). */
export type WebhookKind = 'repository' | 'project';

/** The leading `<project>` argument of the project webhook commands. */
export const projectArg: ArgSpec = { name: 'project', required: true, description: 'Project key' };

/** The command's words for a kind and verb. */
export function webhookCommandName(kind: WebhookKind, verb: string): string {
  return kind === 'project' ? `project webhook ${verb}` : `webhook ${verb}`;
}

/** Splits the positional arguments into the project (for project webhooks) and the rest. */
export function splitProjectArg(kind: WebhookKind, args: string[]): { project?: string; rest: string[] } {
  return kind === 'project' ? { project: normalizeProjectKey(args[0]), rest: args.slice(1) } : { rest: args };
}

/** The scope and host the webhook command acts on: the named project, else the current repository. */
export const webhookScope = (deps: CommandDeps, project: string | undefined) => resolveScope(deps, project);

/** Parses a webhook id argument, naming it when it is not a positive whole number. */
export function webhookId(text: string): number {
  return parseId('webhook id', text, 'int32', 'run `bbdc webhook list` to see the ids');
}

/** What changing a webhook needs: REPO_ADMIN on the repository, PROJECT_ADMIN on the project. */
export function webhookNeeds(kind: WebhookKind) {
  return {
    permission: kind === 'project' ? ('PROJECT_ADMIN' as const) : ('REPO_ADMIN' as const),
    action: 'changing webhooks',
    target: async (o: { project?: string }, deps: CommandDeps) => (await webhookScope(deps, o.project)).scope,
  };
}
