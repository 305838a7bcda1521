import type { Webhook } from '../../../generated/types/cli/output/webhook-list.ts';
import { type Scope, scopePath } from './scope.ts';
import { isoTime } from './timestamps.ts';

/** A webhook as Bitbucket returns it (the fields bbdc reads). */
export type RestWebhook = {
  id?: number;
  name?: string;
  url?: string;
  events?: string[];
  active?: boolean;
  sslVerificationRequired?: boolean;
  configuration?: Record<string, unknown>;
  /** Basic auth bbdc never prints, only sends back on update (a PUT replaces the webhook whole). */
  credentials?: { username?: string; password?: string };
  scopeType?: string;
  createdDate?: number;
  updatedDate?: number;
};

/** What a webhook create or update sends. */
export type WebhookBody = {
  name: string;
  url: string;
  events: string[];
  active: boolean;
  sslVerificationRequired: boolean;
  configuration: Record<string, unknown>;
  credentials?: { username?: string; password?: string };
};

/** The REST path of a scope's webhooks, or of one webhook. */
export function webhooksPath(scope: Scope, id?: number): string {
  return `${scopePath(scope)}/webhooks${id === undefined ? '' : `/${id}`}`;
}

/** The printed webhook (sorted events, ISO dates), never its secret or credentials. */
export function toWebhook(w: RestWebhook, knownId?: number): Webhook {
  // Every field is optional in the 9.4 document (RestWebhook has no id at all): the id asked for stands in.
  const id = typeof w.id === 'number' ? w.id : knownId;
  const hook: Webhook = {
    ...(id !== undefined && { id }),
    name: w.name ?? '',
    url: w.url ?? '',
    events: [...(w.events ?? [])].sort(),
    active: w.active === true,
  };
  if (w.sslVerificationRequired !== undefined) hook.sslVerificationRequired = w.sslVerificationRequired;
  if (w.createdDate) hook.createdDate = isoTime(w.createdDate, 'webhook createdDate');
  if (w.updatedDate) hook.updatedDate = isoTime(w.updatedDate, 'webhook updatedDate');
  return hook;
}

/** A body with the secret replaced by `***`, for plans. */
export function redactBody(body: WebhookBody): WebhookBody {
  const configuration = { ...body.configuration };
  if (configuration.secret !== undefined) configuration.secret = '***';
  const credentials = body.credentials && {
    ...body.credentials,
    ...(body.credentials.password !== undefined && { password: '***' }),
  };
  return { ...body, configuration, ...(credentials && { credentials }) };
}
