// Symptoms "missing RBAC", "client credentials not created (RBAC preventing secret creation)" and "operator
// cannot read secrets in a client namespace": every verb the operator needs, asked of the API server with a
// SubjectAccessReview for its ServiceAccount, and the keycloak-operator-namespace-access binding per namespace.
import type { KubeObject } from '../compile/kube-object.ts';
import { type DoctorCheck, fail, ok } from './check.ts';
import { accessSubject } from './needed-access.ts';
import type { AccessAnswer, Snapshot } from './snapshot.ts';

const accessRole = 'keycloak-operator-namespace-access';
const reapply =
  'kubectl apply --server-side -f dist-manifests/operator.yaml (or helm upgrade the realmforge-operator chart)';

function account(s: Snapshot): string {
  return `${s.operator.namespace}/${s.operator.serviceAccount}`;
}

function bindsAccess(s: Snapshot, binding: KubeObject): boolean {
  const b = binding as KubeObject & {
    roleRef?: { kind?: string; name?: string };
    subjects?: { kind?: string; name?: string; namespace?: string }[];
  };
  return (
    b.roleRef?.kind === 'ClusterRole' &&
    b.roleRef.name === accessRole &&
    (b.subjects ?? []).some(
      (x) =>
        x.kind === 'ServiceAccount' &&
        x.name === s.operator.serviceAccount &&
        x.namespace === s.operator.namespace,
    )
  );
}

/** The operator's cluster-wide verbs and leader election: one FAIL per denied verb, else one OK. */
export function checkClusterAccess(s: Snapshot): DoctorCheck[] {
  // Secrets are granted per namespace (checkNamespaceAccess); the rest is cluster-wide or leader election.
  const wanted = s.access.filter((a: AccessAnswer) => !a.namespace || a.resource !== 'secrets');
  const denied = wanted.filter((a) => !a.allowed);
  if (!denied.length)
    return [
      ok('rbac', `ServiceAccount ${account(s)}`, `all ${wanted.length} verbs the operator needs are allowed`),
    ];
  return denied.map((a) => {
    const role = a.namespace ? 'Role realmforge-leader-election' : 'ClusterRole keycloak-operator';
    return fail(
      'rbac',
      accessSubject(a),
      `denied to ServiceAccount ${account(s)}`,
      `${role} lacks this verb or is not bound to the ServiceAccount${a.reason ? ` (${a.reason})` : ''}`,
      reapply,
    );
  });
}

/** For each namespace holding servers, database credentials or clients: Secret access and its binding. */
export function checkNamespaceAccess(s: Snapshot): DoctorCheck[] {
  return Object.keys(s.bindings)
    .sort()
    .map((ns) => {
      const subject = `namespace ${ns}`;
      const denied = s.access.filter((a) => a.namespace === ns && a.resource === 'secrets' && !a.allowed);
      const bound = (s.bindings[ns] ?? []).some((b) => bindsAccess(s, b));
      if (!denied.length)
        return ok(
          'namespace-access',
          subject,
          bound
            ? `${accessRole} is bound: the operator can use Secrets here`
            : 'the operator can use Secrets here (granted by another binding)',
        );
      const verbs = denied.map((a) => a.verb).join(', ');
      if (!bound)
        return fail(
          'namespace-access',
          subject,
          `the operator cannot ${verbs} Secrets here`,
          `no RoleBinding in ${ns} binds ClusterRole ${accessRole} to ServiceAccount ${account(s)}; its clients stay Pending/SecretAccessDenied`,
          `kubectl create rolebinding realmforge-operator-access -n ${ns} --clusterrole=${accessRole} --serviceaccount=${s.operator.namespace}:${s.operator.serviceAccount} (or install the realmforge-client chart with rbac.create=true)`,
        );
      return fail(
        'namespace-access',
        subject,
        `the operator cannot ${verbs} Secrets here although ${accessRole} is bound`,
        `ClusterRole ${accessRole} lacks these verbs`,
        reapply,
      );
    });
}
