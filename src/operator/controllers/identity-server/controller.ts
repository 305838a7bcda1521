// The IdentityServer controller and what wakes it: its own spec changes, its Keycloak Deployment (readiness
// lives in the Deployment's status), its Services and Ingress (a deleted or edited one is restored at once, not at
// the next resync), and a resync every drift interval to compare it with its children. The watches select the
// operator's own children by label; they are also where the reconcile reads those children from.
import type { ControllerDefinition } from '../../runtime/manager.ts';
import { ownerKey } from '../../runtime/watch-source.ts';
import { pausable } from '../shared/paused.ts';
import { identityServerController, type ServerDeps } from './identity-server.ts';

/** The labels every child of a server carries (serverLabels), as a selector. */
export const serverChildSelector = 'app.kubernetes.io/managed-by=realmforge,app.kubernetes.io/name=keycloak';

export const keycloakDeploymentType = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  labelSelector: serverChildSelector,
} as const;
const serviceType = { apiVersion: 'v1', kind: 'Service', labelSelector: serverChildSelector } as const;
const ingressType = {
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  labelSelector: serverChildSelector,
} as const;

export function identityServerDefinition(deps: ServerDeps): ControllerDefinition {
  return {
    kind: 'IdentityServer',
    reconcile: pausable(deps, 'IdentityServer', identityServerController(deps)),
    watches: [
      { type: { apiVersion: 'realmforge.dev/v1', kind: 'IdentityServer' } },
      { type: keycloakDeploymentType, map: ownerKey('IdentityServer'), onStatus: true },
      { type: serviceType, map: ownerKey('IdentityServer') },
      { type: ingressType, map: ownerKey('IdentityServer') },
    ],
    resync: true,
  };
}
