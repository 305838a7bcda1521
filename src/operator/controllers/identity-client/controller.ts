// The IdentityClient controller and what wakes it: its own spec changes (not the status its reconcile wrote) and
// any change of its IdentityRealm, status included (grants, readiness).
import type { KeycloakDeps } from '../../keycloak/keycloak-deps.ts';
import type { ControllerDefinition } from '../../runtime/manager.ts';
import { ownKey } from '../../runtime/watch-source.ts';
import { realmKeyOf } from '../shared/owner-server.ts';
import { pausable } from '../shared/paused.ts';
import { identityClientController } from './identity-client.ts';

export function identityClientDefinition(deps: KeycloakDeps): ControllerDefinition {
  return {
    kind: 'IdentityClient',
    reconcile: pausable(deps, 'IdentityClient', identityClientController(deps), deps.driftIntervalMs),
    watches: [
      { type: { apiVersion: 'realmforge.dev/v1', kind: 'IdentityClient' } },
      {
        type: { apiVersion: 'realmforge.dev/v1', kind: 'IdentityRealm' },
        onStatus: true,
        wake: (realm, cache) =>
          cache
            .objects('IdentityClient')
            .filter((c) => realmKeyOf(c as never) === realm)
            .map((c) => ownKey(c) as string),
      },
    ],
  };
}
