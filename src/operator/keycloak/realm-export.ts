// The live side of `realmforge import`: a realm's partial export read through the admin API (what the admin
// console's Realm settings > Partial export does: clients, groups and roles included; secrets masked), with the
// realm's organizations, which that export leaves out. It writes nothing: Keycloak serves the export on a POST.
import { RealmforgeError } from '../../core/errors.ts';
import type { AdminClient } from './admin-client.ts';

/** The export of realm `realm`, or a not-found error naming it. */
export async function readRealmExport(admin: AdminClient, realm: string): Promise<unknown> {
  const path = `/${encodeURIComponent(realm)}/partial-export?exportClients=true&exportGroupsAndRoles=true`;
  const res = await admin.call('realmforge-import', 'POST', path);
  if (res.status === 404)
    throw new RealmforgeError(
      'not_found',
      `Keycloak at ${admin.baseUrl} has no realm "${realm}": check --realm`,
    );
  const exp = res.body as Record<string, unknown>;
  // The partial export leaves organizations out (kc.sh export has them): read them as the console lists them.
  if (exp?.organizationsEnabled === true) {
    const orgs = `/${encodeURIComponent(realm)}/organizations?briefRepresentation=false&max=10000`;
    exp.organizations = (await admin.call('realmforge-import', 'GET', orgs)).body;
  }
  return exp;
}
