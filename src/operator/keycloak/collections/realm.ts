// A realm itself: read by name, created in one call carrying its whole representation (realm-create.ts), its own
// fields corrected by one update, deleted. Its fields are planned by the managed-field
// rule (realm-fields.ts, managed-fields.ts); everything it holds is a section of its own (roles.ts, groups.ts, ...)
// that the realm's step list (controllers/identity-realm/realm-steps.ts) syncs around the create or the update.
import type RealmRepresentation from '@keycloak/keycloak-admin-client/lib/defs/realmRepresentation.js';
import type { Clock } from '../../../core/clock.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import { scopeLinkLedgers } from '../../compile/realm/client-scopes.ts';
import type { AdminClient } from '../admin-client.ts';
import { createReadingBack } from '../outcome-unknown.ts';
import { timedRealmCreate } from '../realm-create-timeout.ts';
import { refusedAsSpec } from '../spec-refused.ts';
import { clientPoliciesLedger, clientProfilesLedger } from './client-policies.ts';
import { type Item, ownerAttribute } from './collection.ts';
import { holdLateLedgers, recordLateLedgers } from './late-ledgers.ts';
import { declaredBefore, type FieldPlan, type FieldRules, fieldPaths, planFields } from './managed-fields.ts';
import { messagesLedger } from './messages.ts';
import { openRecord, sealRecord } from './record.ts';
import { realmEarlySectionLedgers, realmLateSectionLedgers } from './section-ownership.ts';
import { userProfileLedgers } from './user-profile.ts';

const enc = encodeURIComponent;

/** The realm named `name` as Keycloak has it, or undefined when there is none. */
export async function readRealm(admin: AdminClient, ns: string, name: string) {
  const res = await admin.call<RealmRepresentation>(ns, 'GET', `/${enc(name)}`);
  return res.status === 404 ? undefined : openRecord(res.body);
}

/**
 * Creates realm `name` with `body` (its timeout scaled by what Keycloak needed before) and returns it as read back.
 * A lost answer is read back before anything else; a 409 is ours only when the realm carries `owner`'s marker (an
 * earlier create of ours whose answer was lost finished after the read-back), never "created by someone else"
 * then. A refusal names the sections the body carries and the fields of `desired` (the realm's own representation,
 * `rules`); Keycloak imports a realm in one transaction, so a refused create leaves no realm.
 */
export async function createRealm(
  admin: AdminClient,
  ns: string,
  name: string,
  create: {
    body: Item;
    desired: Item;
    rules: FieldRules;
    owner: string;
    clock: Clock;
    /** The spec fields of the sections the body carries besides the realm's own. */
    sections?: readonly string[];
  },
): Promise<RealmRepresentation | undefined> {
  const fields = [...fieldPaths(create.desired, create.rules).keys()];
  const outcome = await createReadingBack(
    () =>
      refusedAsSpec('realm', [...(create.sections ?? []), ...fields], () =>
        timedRealmCreate(admin, create.clock, (timeoutMs) =>
          admin.call(ns, 'POST', '', create.body, { timeoutMs }),
        ),
      ),
    () => readRealm(admin, ns, name),
  );
  if ('found' in outcome) return outcome.found;
  if (outcome.created.status !== 409) return readRealm(admin, ns, name);
  const existing = await readRealm(admin, ns, name);
  if (existing?.attributes?.[ownerAttribute] === create.owner) return existing;
  throw new RealmforgeError(
    'conflict',
    existing
      ? `realm ${name} was created outside realmforge while this resource was creating it; it is not adopted (the next reconcile reports RealmNameConflict)`
      : `Keycloak answered 409 to creating realm ${name} but does not show it yet (a create still in progress, such as an earlier one whose answer timed out); looking again`,
  );
}

/** Keycloak 25 drops a realm's browser security headers from an update that sends attributes without them (seen
 * on 25.0 in import's differential); the update carries them as the realm has them unless the spec sets them. */
const keepingHeaders = (body: Item, live: Item): Item =>
  body.attributes !== undefined && body.browserSecurityHeaders === undefined && live.browserSecurityHeaders
    ? { ...body, browserSecurityHeaders: live.browserSecurityHeaders }
    : body;

/** Sends the realm's own update when it plans any change (its record over that of `live`, as read); returns the
 * write. */
export async function updateRealm(admin: AdminClient, ns: string, name: string, plan: FieldPlan, live: Item) {
  if (!plan.drift.length) return [];
  const body = sealRecord(keepingHeaders(plan.body, live), live);
  await refusedAsSpec('realm', plan.drift, () => admin.call(ns, 'PUT', `/${enc(name)}`, body));
  return [`update realm (${plan.drift.join(', ')})`];
}

/** The realm's ledgers of sections synced after its own update (late-ledgers.ts). */
const realmLateLedgers = [
  messagesLedger,
  ...Object.values(scopeLinkLedgers),
  clientProfilesLedger,
  clientPoliciesLedger,
  ...Object.values(userProfileLedgers),
  ...realmLateSectionLedgers,
];

/**
 * Plans the realm's own update from the realm as read before this sync (managed-fields.ts): `first`, the update to
 * send now, its late ledgers that change held at their live values; `body`, the whole update (the held ledgers at
 * their new values) for recordRealmLedgers once their sections are synced.
 */
export function planRealmUpdate(desired: Item, live: Item, rules: FieldRules, declared: readonly string[]) {
  const plan = planFields(desired, live, rules, declared);
  const { first, held } = holdLateLedgers(plan, live, realmLateLedgers, realmEarlySectionLedgers);
  return { first, body: plan.body, held };
}

/** Whether the spec declared items of `collection` last time (the realm's record of its fields). */
export const realmDeclaredBefore = (live: Item, rules: FieldRules, collection: string) =>
  declaredBefore(live, rules, collection);

/** Records the ledgers the update held (late-ledgers.ts) once their sections are synced. */
export const recordRealmLedgers = (
  admin: AdminClient,
  ns: string,
  name: string,
  body: Item,
  held: string[],
  live: Item,
) => recordLateLedgers(admin, ns, `/${enc(name)}`, sealRecord(keepingHeaders(body, live), live), held);

/** Deletes realm `name`. */
export async function deleteRealm(admin: AdminClient, ns: string, name: string): Promise<void> {
  await admin.call(ns, 'DELETE', `/${enc(name)}`);
}
