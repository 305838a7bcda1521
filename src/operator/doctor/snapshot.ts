// What `realmforge doctor` knows about a cluster: everything its checks look at, read once (reads only; the
// SubjectAccessReviews are creates that change nothing). The checks (checks-*.ts) are pure functions of it, so
// each symptom of the troubleshooting guide is tested without a cluster.
import type { IdentityServer } from '../../../generated/types/crds/identityserver.ts';
import type { KubeObject } from '../compile/kube-object.ts';
import { type ResolvedServer, resolveServer } from '../compile/resolved-server.ts';

/** One verb the operator needs, and whether the API server says its ServiceAccount may do it. */
export type AccessAnswer = {
  readonly verb: string;
  readonly group: string;
  readonly resource: string;
  readonly namespace?: string;
  readonly allowed: boolean;
  readonly reason?: string;
};

/** An HTTP probe's outcome: ok, and what was seen (a status line or the error). */
export type Probe = { readonly ok: boolean; readonly detail: string };

/** A /metrics text, or why it could not be read. */
export type MetricsText = { readonly text?: string; readonly error?: string };

/** Where the operator runs and who it is. */
export type OperatorTarget = {
  readonly namespace: string;
  readonly deployment: string;
  readonly serviceAccount: string;
  /** Set when the operator runs outside the cluster (`realmforge dev`): its metrics and health URL. */
  readonly url?: string;
  /** Who said so when no flag did: the record `realmforge dev` leaves in the cluster. */
  readonly recordedBy?: string;
};

/** A server with its defaults applied, and what doctor found about its database, Keycloak and Ingress. */
export type ServerFacts = {
  readonly server: KubeObject;
  readonly resolved: ResolvedServer;
  /** The CloudNativePG Cluster, or undefined when it does not exist. */
  readonly cluster?: KubeObject;
  readonly credentialsSecretExists: boolean;
  /** Keycloak's /health/ready; undefined when the server has no management endpoint yet. */
  readonly keycloak?: Probe;
  /** Keycloak's management /metrics, read once /health/ready answers UP. */
  readonly keycloakMetrics?: MetricsText;
  readonly ingress?: KubeObject;
};

/** Everything the checks read. */
export type Snapshot = {
  readonly cluster: string;
  readonly namespace?: string;
  readonly operator: OperatorTarget;
  /** The three CRDs (and CloudNativePG's Cluster CRD) by name; undefined when not installed. */
  readonly crds: Readonly<Record<string, KubeObject | undefined>>;
  readonly deployment?: KubeObject;
  readonly pods: readonly KubeObject[];
  readonly lease?: KubeObject;
  readonly health?: Probe;
  /** The operator's /metrics. */
  readonly metrics: MetricsText;
  readonly access: readonly AccessAnswer[];
  /** RoleBindings of each namespace that holds servers, database credentials or clients. */
  readonly bindings: Readonly<Record<string, readonly KubeObject[]>>;
  readonly servers: readonly ServerFacts[];
  readonly realms: readonly KubeObject[];
  readonly clients: readonly KubeObject[];
  readonly ingressClasses: readonly KubeObject[];
};

/** The CRDs doctor expects: the operator's three, then CloudNativePG's Cluster. */
export const operatorCrds = [
  'identityservers.realmforge.dev',
  'identityrealms.realmforge.dev',
  'identityclients.realmforge.dev',
];
export const cnpgClusterCrd = 'clusters.postgresql.cnpg.io';

/** The namespaces where the operator needs Secret access: servers', their databases' and clients'. */
export function namespacesNeedingAccess(
  servers: readonly KubeObject[],
  clients: readonly KubeObject[],
): string[] {
  const set = new Set<string>();
  for (const s of servers) {
    set.add(s.metadata.namespace ?? 'default');
    if ((s.spec as { external?: unknown } | undefined)?.external) continue;
    set.add(resolveServer(s as unknown as IdentityServer).database.namespace);
  }
  for (const c of clients) set.add(c.metadata.namespace ?? 'default');
  return [...set].sort();
}
