import type { V1PolicyRule } from '@kubernetes/client-node';
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';

/** Properties of the operator's RBAC: the namespace and service account it runs as. */
export type OperatorRbacProps = { readonly namespace: string; readonly serviceAccount: string };

const crud = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];
const read = ['get', 'list', 'watch'];
const labels = { 'app.kubernetes.io/part-of': 'realmforge' };

/** Exactly what the operator needs cluster-wide; Secrets are deliberately absent (granted per namespace). */
export const operatorRules: V1PolicyRule[] = [
  {
    apiGroups: ['realmforge.dev'],
    resources: ['identityservers', 'identityrealms', 'identityclients'],
    verbs: ['get', 'list', 'watch', 'update', 'patch'],
  },
  {
    apiGroups: ['realmforge.dev'],
    resources: ['identityservers/status', 'identityrealms/status', 'identityclients/status'],
    verbs: ['get', 'update', 'patch'],
  },
  {
    apiGroups: ['realmforge.dev'],
    resources: ['identityservers/finalizers', 'identityrealms/finalizers', 'identityclients/finalizers'],
    verbs: ['update'],
  },
  { apiGroups: ['apps'], resources: ['deployments'], verbs: crud },
  { apiGroups: [''], resources: ['services'], verbs: crud },
  { apiGroups: ['networking.k8s.io'], resources: ['ingresses'], verbs: crud },
  { apiGroups: ['postgresql.cnpg.io'], resources: ['databases'], verbs: crud },
  { apiGroups: ['postgresql.cnpg.io'], resources: ['clusters'], verbs: read },
  // Pods and claims are read only to explain why a server is stuck (image pull, crash loop, unbound volume).
  { apiGroups: [''], resources: ['pods', 'persistentvolumeclaims'], verbs: read },
  { apiGroups: ['', 'events.k8s.io'], resources: ['events'], verbs: ['create', 'patch'] },
];

/** What the operator needs on Secrets in a namespace that holds a server, a database or a client. */
export const namespaceAccessRules: V1PolicyRule[] = [
  { apiGroups: [''], resources: ['secrets'], verbs: crud },
];

/** What a team needs to manage realms and clients (the spec's keycloak-realm-manager). */
export const realmManagerRules: V1PolicyRule[] = [
  { apiGroups: ['realmforge.dev'], resources: ['identityrealms', 'identityclients'], verbs: crud },
];

/** Leader election: one Lease in the operator's own namespace. */
export const leaderElectionRules: V1PolicyRule[] = [
  {
    apiGroups: ['coordination.k8s.io'],
    resources: ['leases'],
    verbs: ['get', 'list', 'watch', 'create', 'update', 'patch'],
  },
];

/** The ClusterRoles keycloak-operator, keycloak-realm-manager and keycloak-operator-namespace-access, and bindings. */
export class OperatorRbac extends Construct {
  constructor(scope: Construct, id: string, props: OperatorRbacProps) {
    super(scope, id);
    const subject = { kind: 'ServiceAccount', name: props.serviceAccount, namespace: props.namespace };
    const clusterRole = (name: string, rules: V1PolicyRule[]) =>
      new ApiObject(this, name, {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name, labels },
        rules,
      });
    clusterRole('keycloak-operator', operatorRules);
    clusterRole('keycloak-realm-manager', realmManagerRules);
    clusterRole('keycloak-operator-namespace-access', namespaceAccessRules);
    new ApiObject(this, 'operator-binding', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'keycloak-operator', labels },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'keycloak-operator' },
      subjects: [subject],
    });
    const leaderRole = 'realmforge-leader-election';
    new ApiObject(this, 'leader-role', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: leaderRole, namespace: props.namespace, labels },
      rules: leaderElectionRules,
    });
    new ApiObject(this, 'leader-binding', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: leaderRole, namespace: props.namespace, labels },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: leaderRole },
      subjects: [subject],
    });
  }
}
