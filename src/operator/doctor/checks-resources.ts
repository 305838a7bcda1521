// Symptoms "IdentityServer / IdentityRealm stuck Pending or Provisioning", "client creation fails" and "client
// credentials not created": every IdentityServer, IdentityRealm and IdentityClient that is not Ready, with the
// reason the operator wrote and the next step for it; a resource whose generation was not reconciled yet.
import type { KubeObject } from '../compile/kube-object.ts';
import { type DoctorCheck, fail, ok, warn } from './check.ts';
import type { Snapshot } from './snapshot.ts';

type Status = { phase?: string; reason?: string; message?: string; observedGeneration?: number };

/** The next step for each reason the controllers write (docs/operator.md). */
const nextSteps: Record<string, string> = {
  DatabaseClusterMissing:
    'create the CloudNativePG Cluster named in spec.database.cluster, or correct spec.database',
  DatabaseNotReady:
    'wait for the CloudNativePG Cluster, or read why it is not ready: kubectl describe cluster.postgresql.cnpg.io',
  DatabaseCredentialsMissing:
    'create the Secret spec.database.credentialsSecret (default <cluster>-app, keys username and password) in the database namespace',
  ImagePullFailed: 'correct spec.image.tag, or give the namespace a pull secret for quay.io',
  Unschedulable: 'free or add cluster capacity, or lower spec.resources.requests',
  VolumeClaimPending: 'check the StorageClass and the PersistentVolumeClaim: kubectl describe pvc',
  CrashLoop:
    'read the Keycloak log: kubectl logs deployment/<server> --previous (database connection, options)',
  ProbesFailing: 'raise spec.probes delays, or read the Keycloak log for why /health fails',
  HealthNotReady: 'read the Keycloak log; /health/ready on port 9000 does not answer UP',
  DeploymentNotAvailable: 'kubectl describe deployment <server>; its pods are not available yet',
  InvalidSpec: 'correct the spec as the message says',
  ServerNotReady: 'make the IdentityServer Ready first (see its check)',
  RealmNotReady: 'make the IdentityRealm Ready first (see its check), and check spec.realmRef.namespace',
  NamespaceNotAuthorized:
    "add this namespace to the realm's spec.clientAuthorizationGrants, or move the client",
  'IdentityRealm/NamespaceNotAuthorized':
    "add this namespace to the IdentityServer's spec.realmAuthorizationGrants, or move the realm",
  SecretAccessDenied:
    'bind keycloak-operator-namespace-access in this namespace (see the namespace-access check)',
  SecretConflict: 'delete or rename the Secret the message names, or set spec.secretName',
  ClientIdConflict: 'choose another spec.clientId, or delete the client that already uses it in Keycloak',
  RealmNameConflict:
    "choose another spec.realmName; that realm exists in Keycloak and is not this resource's",
  AdminCredentialsRejected:
    "Keycloak refuses the <server>-admin-credentials Secret: restore the admin account's password, or the Secret's",
  AdminCredentialsLost:
    'the admin credentials Secret is gone while the database already has an admin: the message says how to get one back',
  RolloutInProgress: 'wait: Keycloak pods are being replaced (kubectl rollout status deployment/<server>)',
  UpgradeInProgress: 'wait: the old Keycloak version stops before the new one starts on the same database',
  KeycloakUnavailable:
    "the message names the failed call and Keycloak's answer (429: throttled, 5xx or no answer: Keycloak or its database is down); see the server's Keycloak check below; the operator retries with backoff",
  RealmGrantMissing:
    "give the operator's master identity the roles of client <realm>-realm in master that the message names (its kcadm.sh command); the operator then creates its identity in the realm",
  RealmIdentityRefused:
    "the operator's client realmforge-operator in the realm was deleted or re-keyed: the realm's reconcile restores it; if it stays, see the IdentityRealm's check",
  RealmIdentityConflict:
    'delete or rename the client realmforge-operator in the realm that realmforge did not create',
  RealmIdentityRestored:
    "the operator's identity in the realm had been deleted, re-keyed or stripped of roles and was restored; find who changed it (Keycloak's admin events)",
  KeycloakAuthFailed:
    "the operator's admin credentials are refused: check the <server>-admin-credentials Secret",
};

function resourceCheck(object: KubeObject): DoctorCheck {
  const { kind, metadata } = object;
  const subject = `${kind} ${metadata.namespace}/${metadata.name}`;
  const status = (object.status ?? {}) as Status;
  const describe = `kubectl describe ${kind.toLowerCase()} -n ${metadata.namespace} ${metadata.name}`;
  if (!status.phase)
    return fail(
      'resources',
      subject,
      'no status',
      'the operator has not reconciled it: it is not running, or cannot read this kind',
      'see the operator and rbac checks',
    );
  if (metadata.generation !== undefined && (status.observedGeneration ?? 0) < metadata.generation)
    return warn(
      'resources',
      subject,
      `${status.phase}, generation ${metadata.generation} not reconciled yet (observed ${status.observedGeneration ?? 0})`,
      'the latest change is waiting in the queue, or the operator is not reconciling',
      'wait a few seconds; if it stays, see the operator and metrics checks',
    );
  if (status.phase === 'Ready' && (status.reason ?? 'Ready') === 'Ready')
    return ok('resources', subject, 'Ready');
  if (status.phase === 'Ready')
    return warn(
      'resources',
      subject,
      `Ready as last verified, not Synced: ${status.reason}`,
      status.message ?? `the operator reports ${status.reason}`,
      `${nextSteps[status.reason ?? ''] ?? describe}; Ready turns False when the grace (--ready-grace) is over`,
    );
  const reason = status.reason ?? 'unknown';
  const fix = nextSteps[`${kind}/${reason}`] ?? nextSteps[reason] ?? describe;
  const message = `${status.phase}/${reason}`;
  const cause = status.message || `the operator reports ${reason}`;
  return status.phase === 'Failed' || status.phase === 'Pending'
    ? fail('resources', subject, message, cause, fix)
    : warn('resources', subject, message, cause, fix);
}

/** One check per IdentityServer, IdentityRealm and IdentityClient. */
export function checkResources(s: Snapshot): DoctorCheck[] {
  return [...s.servers.map((f) => f.server), ...s.realms, ...s.clients].map(resourceCheck);
}
