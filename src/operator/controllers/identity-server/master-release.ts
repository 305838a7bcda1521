// Once per server and operator process, when the server answers the operator's identity: a master identity that
// still holds master's `admin` (a server an earlier release made) is reduced to create-realm after every realm the
// operator made has its own identity (keycloak/master-reduction.ts); reported by the event OperatorIdentityReduced.
// A failure is logged and retried at the next pass: until then the master identity keeps `admin` and works.
import type { IdentityServer } from '../../../../generated/types/crds/identityserver.ts';
import type { KubeObject } from '../../compile/kube-object.ts';
import { reduceMasterIdentity } from '../../keycloak/master-reduction.ts';
import type { ServerDeps } from './identity-server.ts';

/** The step, remembering the servers it is done for (by uid). */
export function masterRelease(deps: ServerDeps) {
  const done = new Set<string>();
  return async function release(server: IdentityServer): Promise<string[]> {
    const id = server.metadata.uid ?? `${server.metadata.namespace}/${server.metadata.name}`;
    if (done.has(id)) return [];
    const ns = server.metadata.namespace ?? 'default';
    try {
      const admin = await deps.admins.forServer(server);
      const changes = admin.masterUser
        ? await reduceMasterIdentity(admin.master, ns, admin.masterUser, admin.realmSecret)
        : [];
      done.add(id);
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
