import { RealmforgeError, UsageError } from '../../../core/errors.ts';
import type { RestWebhook, WebhookBody } from '../../api/webhooks.ts';
import type { FlagSpec } from '../../command.ts';

/** The webhook fields a create or update may set; undefined means "not given". */
export type WebhookFields = {
  name?: string;
  url?: string;
  events?: string[];
  secret?: string;
  active?: boolean;
  sslVerificationRequired?: boolean;
};

const boolChoice = (description: string): FlagSpec => ({
  type: 'string',
  value: 'true|false',
  choices: ['true', 'false'],
  description,
});

/** The flags of webhook create and update. */
export const webhookFlags: Record<string, FlagSpec> = {
  name: { type: 'string', value: 'NAME', description: 'Webhook name' },
  url: { type: 'string', value: 'URL', description: 'http(s) URL the events are posted to' },
  events: {
    type: 'string',
    isMultiple: true,
    value: 'EVENTS',
    description: 'Event ids, comma-separated or repeated, e.g. repo:refs_changed,pr:opened',
  },
  secret: {
    type: 'string',
    value: 'SECRET',
    description: 'Secret used to sign each delivery (never printed)',
  },
  active: boolChoice('Whether the webhook delivers events (default true)'),
  sslVerification: boolChoice('Whether the target certificate is verified (default true)'),
};

const eventPattern = /^[a-z_]+(:[a-z_]+)+$/;

/** Reads and checks the webhook flags, naming the flag that is wrong. */
export function parseWebhookFields(flags: Record<string, unknown>): WebhookFields {
  const fields: WebhookFields = {};
  if (flags.name !== undefined) fields.name = String(flags.name).trim();
  if (flags.url !== undefined) {
    const url = String(flags.url);
    let protocol = '';
    try {
      protocol = new URL(url).protocol;
    } catch {}
    if (protocol !== 'http:' && protocol !== 'https:')
      throw new UsageError(`--url "${url}" must be an http:// or https:// URL`);
    fields.url = url;
  }
  const events = ((flags.events as string[] | undefined) ?? []).flatMap((e) =>
    e
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );
  for (const e of events)
    if (!eventPattern.test(e))
      throw new UsageError(
        `--events "${e}" is not an event id; use ids such as repo:refs_changed or pr:opened`,
      );
  if (events.length) fields.events = [...new Set(events)].sort();
  if (flags.secret !== undefined) fields.secret = String(flags.secret);
  if (flags.active !== undefined) fields.active = flags.active === 'true';
  if (flags.sslVerification !== undefined) fields.sslVerificationRequired = flags.sslVerification === 'true';
  return fields;
}

/** The body for a new webhook; name, url and events are required. */
export function createBody(f: WebhookFields): WebhookBody {
  const missing = (['name', 'url', 'events'] as const).filter((k) => !f[k]);
  if (missing.length)
    throw new UsageError(
      `${missing.map((m) => `--${m}`).join(', ')} ${missing.length > 1 ? 'are' : 'is'} required to create a webhook`,
    );
  return {
    name: f.name!,
    url: f.url!,
    events: f.events!,
    active: f.active ?? true,
    sslVerificationRequired: f.sslVerificationRequired ?? true,
    configuration: f.secret === undefined ? {} : { secret: f.secret },
  };
}

/**
 * The body for an update: the current webhook with the given fields changed. A PUT replaces the webhook, so a
 * field the server did not return and the user did not give is refused rather than sent empty.
 */
export function updateBody(current: RestWebhook, f: WebhookFields): WebhookBody {
  const configuration = { ...(current.configuration ?? {}) };
  if (f.secret !== undefined) configuration.secret = f.secret;
  const known = <T>(given: T | undefined, now: T | undefined, flag: string): T => {
    if (given !== undefined) return given;
    if (now !== undefined) return now;
    throw new RealmforgeError(
      'conflict',
      `the server's answer for this webhook has no ${flag.slice(2)}; pass ${flag} so the update does not erase it`,
    );
  };
  return {
    name: known(f.name, current.name, '--name'),
    url: known(f.url, current.url, '--url'),
    events: known(f.events, current.events && [...current.events].sort(), '--events'),
    active: known(f.active, current.active, '--active'),
    sslVerificationRequired: f.sslVerificationRequired ?? current.sslVerificationRequired ?? true,
    configuration,
    // The PUT replaces the webhook: credentials left out would be erased.
    ...(current.credentials && { credentials: current.credentials }),
  };
}
