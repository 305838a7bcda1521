// A 500 that Keycloak gives again to the very same request (method, URL and body) after it answered other calls in
// between is not Keycloak being unavailable: it is Keycloak refusing that content (a value longer than its
// database column answers 500 unknown_error). Reported as the spec's problem with Keycloak's words, it is looked
// at again at the next drift check or spec change, instead of being retried for ever as an outage.
import { createHash } from 'node:crypto';
import { RealmforgeError } from '../../core/errors.ts';

/** What the exchange remembers of recent 500s to requests with a body; one per Keycloak client. */
export type RefusalMemory = {
  /** Keycloak answered `key`'s request (or, without a key, some request) with something other than a failure. */
  answered(key?: string): void;
  /** Records a 500 to `key`; true when the same request got one before and Keycloak answered other calls since. */
  refusedAgain(key: string): boolean;
};

/** A JSON value without the fields that hold credentials (a create sends a newly generated secret each attempt). */
function withoutCredentials(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCredentials);
  if (!value || typeof value !== 'object') return value;
  const kept = Object.entries(value).filter(([k]) => !/secret|password|credential/i.test(k));
  return Object.fromEntries(kept.map(([k, v]) => [k, withoutCredentials(v)]));
}

/** The key of a request: its method, URL and body without credentials, hashed (bodies can be large). */
export function refusalKey(method: string, url: string, body: string): string {
  let content = body;
  try {
    content = JSON.stringify(withoutCredentials(JSON.parse(body)));
  } catch {
    // not JSON: the body as it is
  }
  return createHash('sha256').update(`${method} ${url}\n${content}`).digest('hex');
}

/** A memory of the last `limit` refused requests. */
export function refusalMemory(limit = 256): RefusalMemory {
  let answers = 0;
  const refused = new Map<string, number>();
  return {
    answered(key) {
      answers++;
      if (key) refused.delete(key);
    },
    refusedAgain(key) {
      const before = refused.get(key);
      refused.delete(key);
      refused.set(key, answers);
      if (refused.size > limit) refused.delete(refused.keys().next().value as string);
      return before !== undefined && answers > before;
    },
  };
}

/** Keycloak refuses the content of a request it answers 500 every time: the spec must change. */
export function contentRefused(method: string, path: string, failure: string): RealmforgeError {
  return new RealmforgeError(
    'validation',
    `Keycloak refused ${method} ${path} again with ${failure} while it answered other calls: it refuses what the spec sends (for example a value longer than Keycloak stores), not the call; correct the spec`,
  );
}
