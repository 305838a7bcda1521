// The ledgers of the sections synced after the realm's own update (message overrides, client profiles and
// policies, the user profile: they may name client scopes and roles made after it). Such a section reads the
// ledger from the realm as it was before the update, to know what it may delete; if the update already dropped a
// name and the section's write then fails, the next reconcile would take the leftover for hand-made and keep it
// forever. So the update holds each changing late ledger at its live value, and the plan's own body, ledgers
// included, is sent again once the sections are synced (`record`). Steady state: nothing held, nothing sent.
import type { AdminClient } from '../../keycloak/admin-client.ts';
import { clientPoliciesLedger, clientProfilesLedger } from '../../keycloak/collections/client-policies.ts';
import type { FieldPlan } from '../../keycloak/collections/managed-fields.ts';
import { messagesLedger } from '../../keycloak/collections/messages.ts';
import { userProfileLedgers } from '../../keycloak/collections/user-profile.ts';

type Obj = Record<string, unknown>;

const lateLedgers = [
  messagesLedger,
  clientProfilesLedger,
  clientPoliciesLedger,
  ...Object.values(userProfileLedgers),
];

/** The realm update to send first (the late ledgers that change held at their live values, and only when
 * something else changes too), and the late ledgers it held. */
export function holdLateLedgers(plan: FieldPlan, live: Obj): { first: FieldPlan; held: string[] } {
  const want = (plan.body.attributes ?? {}) as Obj;
  const have = (live.attributes ?? {}) as Obj;
  const text = (v: unknown) => String(v ?? '');
  const held = lateLedgers.filter((k) => k in want && text(want[k]) !== text(have[k]));
  if (!held.length) return { first: plan, held };
  const attributes = { ...want, ...Object.fromEntries(held.map((k) => [k, text(have[k])])) };
  const drift = plan.drift.filter((path) => !held.some((k) => path === `attributes/${k}`));
  return { first: { ...plan, drift, body: { ...plan.body, attributes } }, held };
}

/** Sends the plan's whole body again, the held ledgers at their new values, once their sections are synced. */
export async function recordLateLedgers(
  admin: AdminClient,
  ns: string,
  realm: string,
  plan: FieldPlan,
  held: readonly string[],
): Promise<string[]> {
  if (!held.length) return [];
  await admin.call(ns, 'PUT', `/${encodeURIComponent(realm)}`, plan.body);
  return [`record ${held.join(', ')}`];
}
