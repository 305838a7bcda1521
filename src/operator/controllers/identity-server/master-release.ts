// Once per server and master identity, when the server answers the operator's identity: a master identity that
// still holds master's `admin` (a server an earlier release made, or an identity just made beside such realms) is
// reduced to create-realm after every realm of the server's IdentityRealms has its own identity
// (keycloak/master-reduction.ts); reported by the event OperatorIdentityReduced. A failure is logged and retried at
// the next pass: until then the master identity keeps `admin` and works.
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import type { IdentityServer } from '../../../../generated/types/crds/identityserver.ts';
import { apiVersion, type KubeObject } from '../../compile/kube-object.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';
import { reduceMasterIdentity } from '../../keycloak/master-reduction.ts';
import { realmOwnerOf } from '../identity-realm/realm-ownership.ts';
import { serverKeyOf } from '../shared/owner-server.ts';
import type { ServerDeps } from './identity-server.ts';

/** The step, remembering the master identities (their clients) it is done for. */
export function masterRelease(deps: ServerDeps) {
  const done = new WeakSet<AdminClient>();
  return async function release(server: IdentityServer): Promise<string[]> {
    const ns = server.metadata.namespace ?? 'default';
    try {
      const admin = await deps.admins.forServer(server);
      if (done.has(admin.master) || !admin.masterUser) return [];
      const key = `${ns}/${server.metadata.name}`;
      const realms = (await deps.kube.list(
        { apiVersion, kind: 'IdentityRealm' },
        '',
      )) as unknown as IdentityRealm[];
      const owners = new Set(realms.filter((r) => serverKeyOf(r) === key).map(realmOwnerOf));
      const changes = await reduceMasterIdentity(admin.master, ns, admin.masterUser, {
        owners,
        secretOf: admin.realmSecret,
      });
      done.add(admin.master);
      if (changes.length)
        await deps.kube.event(server as unknown as KubeObject, {
          type: 'Normal',
          reason: 'OperatorIdentityReduced',
          message: `the operator's master identity holds only what creating and deleting realms needs: ${changes.join('; ')}`,
        });
      return changes;
    } catch (error) {
      deps.logger.warn(`cannot reduce the operator's master identity yet: ${(error as Error).message}`, {});
      return [];
    }
  };
}
