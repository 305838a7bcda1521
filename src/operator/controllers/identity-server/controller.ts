// The IdentityServer controller and what wakes it: its own spec changes, its Keycloak Deployment (readiness
// lives in the Deployment's status), and a resync every drift interval to compare it with its children.
import type { Deps } from '../../runtime/deps.ts';
import type { ControllerDefinition } from '../../runtime/manager.ts';
import { ownerKey } from '../../runtime/watch-source.ts';
import { identityServerController } from './identity-server.ts';

export const keycloakDeploymentType = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  labelSelector: 'app.kubernetes.io/managed-by=realmforge,app.kubernetes.io/name=keycloak',
} as const;

export function identityServerDefinition(deps: Deps): ControllerDefinition {
  return {
    kind: 'IdentityServer',
    reconcile: identityServerController(deps),
    watches: [
      { type: { apiVersion: 'realmforge.dev/v1', kind: 'IdentityServer' } },
      { type: keycloakDeploymentType, map: ownerKey('IdentityServer'), onStatus: true },
    ],
    resync: true,
  };
}
