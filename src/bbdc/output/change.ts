// One planned HTTP change, computed once: the dry run prints exactly the request the real run sends (plan == request).
import type { Plan } from '../../../generated/types/cli/plan.ts';
import { RealmforgeError } from '../../core/errors.ts';
import type { BitbucketClient, Query } from '../api/client.ts';
import { httpPlan } from './http-plan.ts';

/** A request a command will send, what it is predicted to do and why; built from read-only calls only. */
export type Change = {
  client: BitbucketClient;
  intent: string;
  host: string;
  target: { type: string; id: string };
  /** `contentType` only when the document declares another JSON media type (e.g. Bitbucket's bulk type). */
  request: { method: string; path: string; query?: Query; body?: unknown; contentType?: string };
  description: string;
  predicted: Plan['predictedAction'];
  reasons: string[];
  blocking?: string[];
};

/** The path with its query string, as the plan shows it and the client sends it. */
function shownPath(c: Change): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(c.request.query ?? {})) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `${c.request.path}?${s}` : c.request.path;
}

/** The dry-run plan of a change. */
export function planOf(c: Change): Plan {
  return httpPlan({
    intent: c.intent,
    host: c.host,
    target: c.target,
    request: { method: c.request.method, path: shownPath(c), body: c.request.body },
    description: c.description,
    predicted: c.predicted,
    reasons: c.reasons,
    blocking: c.blocking,
  });
}

/**
 * Sends the change unless it is a no-op (then answers undefined); a blocked change is refused with its first
 * blocking reason, and nothing is sent.
 */
export async function apply<T>(c: Change): Promise<{ data: T; status: number } | undefined> {
  if (c.blocking?.length)
    throw new RealmforgeError(
      'conflict',
      `cannot ${c.description}: ${c.blocking.join('; ')}; nothing was changed`,
    );
  if (c.predicted === 'no-op') return undefined;
  const res = await c.client.request<T>(c.request.method, c.request.path, {
    query: c.request.query,
    body: c.request.body,
    contentType: c.request.contentType,
  });
  return { data: res.data, status: res.status };
}
