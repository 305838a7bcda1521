// The IdentityRealm controller and what wakes it: its own spec changes (not the status its reconcile wrote) and
// any change of its IdentityServer, status included (readiness, URL, version).
import type { KeycloakDeps } from '../../keycloak/keycloak-deps.ts';
import type { ControllerDefinition } from '../../runtime/manager.ts';
import { ownKey } from '../../runtime/watch-source.ts';
import { serverKeyOf } from '../shared/owner-server.ts';
import { pausable } from '../shared/paused.ts';
import { identityRealmController } from './identity-realm.ts';

export function identityRealmDefinition(deps: KeycloakDeps): ControllerDefinition {
  return {
    kind: 'IdentityRealm',
    reconcile: pausable(deps, 'IdentityRealm', identityRealmController(deps), deps.driftIntervalMs),
    watches: [
      { type: { apiVersion: 'realmforge.dev/v1', kind: 'IdentityRealm' } },
      {
        type: { apiVersion: 'realmforge.dev/v1', kind: 'IdentityServer' },
        onStatus: true,
        wake: (server, cache) =>
          cache
            .objects('IdentityRealm')
            .filter((r) => serverKeyOf(r as never) === server)
            .map((r) => ownKey(r) as string),
      },
    ],
  };
}
