import type { V1ObjectMeta, V1OwnerReference } from '@kubernetes/client-node';
import type { IdentityServer } from '../../../generated/types/crds/identityserver.ts';
import { labelValue } from './names.ts';

/** Any Kubernetes object the compilers emit: apiVersion, kind, metadata and a body. */
export type KubeObject = {
  apiVersion: string;
  kind: string;
  metadata: V1ObjectMeta & { name: string };
  [field: string]: unknown;
};

/** The group/version of the three custom resources. */
export const apiVersion = 'realmforge.dev/v1';

/** The field manager for server-side apply and the finalizer name (docs/decisions.md). */
export const fieldManager = 'realmforge';
export const finalizer = 'realmforge.dev/cleanup';

/** The recommended app.kubernetes.io labels of everything compiled for one IdentityServer. */
export function serverLabels(server: IdentityServer): Record<string, string> {
  return {
    'app.kubernetes.io/component': 'identity-server',
    'app.kubernetes.io/instance': labelValue(server.metadata.name),
    'app.kubernetes.io/managed-by': 'realmforge',
    'app.kubernetes.io/name': 'keycloak',
    'app.kubernetes.io/part-of': 'realmforge',
    // An existing Keycloak (spec.external) has no image: its children (the operator's client Secret) carry no version.
    ...(server.spec.image ? { 'app.kubernetes.io/version': labelValue(server.spec.image.tag) } : {}),
  };
}

/** The pod selector of an IdentityServer's Keycloak: stable across versions, so it never changes. */
export function serverSelector(server: IdentityServer): Record<string, string> {
  return {
    'app.kubernetes.io/instance': labelValue(server.metadata.name),
    'app.kubernetes.io/name': 'keycloak',
  };
}

/** The controller owner reference to an IdentityServer, or none when it has no uid yet (synth without a cluster). */
export function ownerReferences(server: IdentityServer): V1OwnerReference[] | undefined {
  const uid = server.metadata.uid;
  if (!uid) return undefined;
  return [
    {
      apiVersion,
      kind: 'IdentityServer',
      name: server.metadata.name,
      uid,
      controller: true,
      blockOwnerDeletion: true,
    },
  ];
}
