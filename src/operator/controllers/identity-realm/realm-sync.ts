// Makes one realm in Keycloak equal to its IdentityRealm: created in one call with its full representation; on
// later reconciles read once, compared on the fields the resource manages, written only where they differ.
// Roles and groups are read only when the resource declares some; Keycloak's own roles and groups are never
// touched, and nothing the resource does not name is deleted.
import type GroupRepresentation from '@keycloak/keycloak-admin-client/lib/defs/groupRepresentation.js';
import type RealmRepresentation from '@keycloak/keycloak-admin-client/lib/defs/realmRepresentation.js';
import type RoleRepresentation from '@keycloak/keycloak-admin-client/lib/defs/roleRepresentation.js';
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import { compileRealm } from '../../compile/realm-representation.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';
import { isSubset } from '../../runtime/desired-state.ts';
import { ownershipAttributes } from './realm-ownership.ts';

/** What a sync did: the live realm's id and the writes it sent. */
export type RealmSyncResult = { realmId?: string; writes: string[] };

const enc = encodeURIComponent;

/**
 * The representation compared with Keycloak: the SMTP password is never readable back, so it is left out; its
 * hash attribute (set beside it) stands in for it.
 */
function comparable(desired: RealmRepresentation): RealmRepresentation {
  if (!desired.smtpServer?.password) return desired;
  const { password: _, ...smtp } = desired.smtpServer;
  return { ...desired, smtpServer: smtp };
}

async function syncRoles(
  admin: AdminClient,
  ns: string,
  realm: string,
  spec: IdentityRealm['spec'],
  writes: string[],
) {
  if (!spec.roles?.length) return;
  const live =
    (await admin.call<RoleRepresentation[]>(ns, 'GET', `/${enc(realm)}/roles?briefRepresentation=false`))
      .body ?? [];
  for (const role of spec.roles) {
    const found = live.find((r) => r.name === role.name);
    const want = { name: role.name, description: role.description ?? '' };
    if (!found) {
      await admin.call(ns, 'POST', `/${enc(realm)}/roles`, want);
      writes.push(`create role ${role.name}`);
    } else if ((found.description ?? '') !== want.description) {
      await admin.call(ns, 'PUT', `/${enc(realm)}/roles/${enc(role.name)}`, { ...found, ...want });
      writes.push(`update role ${role.name}`);
    }
  }
}

async function syncGroups(
  admin: AdminClient,
  ns: string,
  realm: string,
  spec: IdentityRealm['spec'],
  writes: string[],
) {
  if (!spec.groups?.length) return;
  const path = `/${enc(realm)}/groups`;
  const live =
    (await admin.call<GroupRepresentation[]>(ns, 'GET', `${path}?briefRepresentation=false&max=1000`)).body ??
    [];
  for (const group of spec.groups) {
    let found = live.find((g) => g.name === group.name);
    if (!found) {
      const created = await admin.call(ns, 'POST', path, { name: group.name });
      writes.push(`create group ${group.name}`);
      found = { id: created.location?.split('/').pop(), name: group.name, realmRoles: [] };
    }
    const missing = (group.realmRoles ?? []).filter((r) => !found.realmRoles?.includes(r));
    if (!missing.length || !found.id) continue;
    const roles: RoleRepresentation[] = [];
    for (const name of missing) {
      const role = await admin.call<RoleRepresentation>(ns, 'GET', `/${enc(realm)}/roles/${enc(name)}`);
      if (role.status === 404) {
        throw new RealmforgeError(
          'validation',
          `spec.groups[${group.name}].realmRoles names role "${name}", which the realm does not have`,
        );
      }
      roles.push(role.body);
    }
    await admin.call(ns, 'POST', `${path}/${enc(found.id)}/role-mappings/realm`, roles);
    writes.push(`map roles ${missing.join(',')} to group ${group.name}`);
  }
}

/**
 * Creates or corrects the realm; `ns` is the IdentityRealm's namespace (its rate-limit bucket). `live` is the
 * realm as just read (undefined when absent): the caller read it to decide ownership (realm-ownership.ts). The
 * owner marker and the SMTP password's hash are desired attributes, so a rotated password is drift like any other.
 */
export async function syncRealm(
  admin: AdminClient,
  realm: IdentityRealm,
  inputs: { smtpPassword?: string; live: RealmRepresentation | undefined },
): Promise<RealmSyncResult> {
  const ns = realm.metadata.namespace ?? 'default';
  const compiled = compileRealm(realm, inputs);
  const attributes = { ...compiled.attributes, ...ownershipAttributes(realm, inputs.smtpPassword) };
  const desired: RealmRepresentation = { ...compiled, attributes };
  const name = desired.realm as string;
  const writes: string[] = [];
  const live = { body: inputs.live as RealmRepresentation };
  if (!inputs.live) {
    const roles = realm.spec.roles?.map((r) => ({ name: r.name, description: r.description ?? '' }));
    const groups = realm.spec.groups?.map((g) => ({ name: g.name, realmRoles: g.realmRoles ?? [] }));
    const full: RealmRepresentation = {
      ...desired,
      ...(roles ? { roles: { realm: roles } } : {}),
      ...(groups ? { groups } : {}),
    };
    const created = await admin.call(ns, 'POST', '', full);
    if (created.status === 409) {
      throw new RealmforgeError(
        'conflict',
        `realm ${name} was created by someone else at the same time; retrying`,
      );
    }
    writes.push('create realm');
    const after = await admin.call<RealmRepresentation>(ns, 'GET', `/${enc(name)}`);
    return { realmId: after.body?.id, writes };
  }
  if (!isSubset(comparable(desired), live.body)) {
    await admin.call(ns, 'PUT', `/${enc(name)}`, desired);
    writes.push('update realm');
  }
  await syncRoles(admin, ns, name, realm.spec, writes);
  await syncGroups(admin, ns, name, realm.spec, writes);
  return { realmId: live.body?.id, writes };
}
