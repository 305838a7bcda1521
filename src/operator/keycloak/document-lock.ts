// Keycloak keeps a realm's client profiles and client policies each in one document, read, changed and written
// whole. Two reconciles of this operator can change one realm's documents at once (the realm's spec.clientPolicies
// and a client rotating its secret with a grace, which keeps the operator's grace profile there): each would write
// back the list it read and lose the other's change. One lock per Keycloak and realm runs them one after the other.
// (Only the leader writes, so an in-process lock covers the operator; a hand edit between a read and its write is
// drift that the next resync reverts.)
import type { AdminClient } from './admin-client.ts';

const tails = new Map<string, Promise<void>>();

/** Runs `change` once every earlier change of `realm`'s client-policy documents on this Keycloak has finished. */
export async function withClientPolicyDocuments<T>(
  admin: AdminClient,
  realm: string,
  change: () => Promise<T>,
): Promise<T> {
  const key = `${admin.baseUrl}|${realm}`;
  const before = tails.get(key) ?? Promise.resolve();
  const run = before.then(change);
  const tail = run.then(
    () => {},
    () => {},
  );
  tails.set(key, tail);
  try {
    return await run;
  } finally {
    if (tails.get(key) === tail) tails.delete(key);
  }
}
