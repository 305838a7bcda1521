// Safe Keycloak upgrades. Keycloak migrates its database when a new version starts, and two versions must never
// run against one database at the same time; a Deployment's RollingUpdate would do exactly that. So a change of
// version is rolled out like the Recreate strategy, by the operator: while any pod still runs another version, the
// Deployment (already carrying the new version) is kept at zero replicas; once every old pod is gone it is scaled
// back. A configuration change that keeps the version still rolls out pod by pod. A version below the highest one
// ever started on the database (status.databaseVersion) is refused: Keycloak cannot run on a newer schema.
import type { V1Pod } from '@kubernetes/client-node';
import type { IdentityServer } from '../../../../generated/types/crds/identityserver.ts';
import { compareKeycloakVersions, higherVersion, imageTag } from '../../compile/keycloak-version.ts';
import { deployedSpec } from '../../compile/resolved-server.ts';

/** The versions of Keycloak the server's pods run (terminating pods included: they still use the database). */
export function runningVersions(pods: readonly V1Pod[]): string[] {
  const tags = pods.flatMap((p) =>
    (p.spec?.containers ?? [])
      .filter((c) => c.name === 'keycloak' && c.image)
      .map((c) => imageTag(c.image as string)),
  );
  return [...new Set(tags)].sort();
}

/** The older versions still running while the spec asks for another one (empty: nothing to stop). */
export function versionsToStop(server: IdentityServer, pods: readonly V1Pod[]): string[] {
  return runningVersions(pods).filter((v) => v !== deployedSpec(server).image.tag);
}

/** The highest version the database has been started with, counting the one about to start. */
export function databaseVersion(server: IdentityServer, starting: boolean): string | undefined {
  const known = higherVersion(server.status?.databaseVersion, server.status?.version);
  return starting ? higherVersion(known, deployedSpec(server).image.tag) : known;
}

/** Why the spec's version may not run (a downgrade below the database's version), or undefined. */
export function downgradeRefusal(server: IdentityServer): string | undefined {
  const migrated = databaseVersion(server, false);
  const wanted = deployedSpec(server).image.tag;
  if (!migrated || compareKeycloakVersions(wanted, migrated) >= 0) return undefined;
  return `spec.image.tag ${wanted} is below ${migrated}, the version this server's database was migrated to; Keycloak cannot run on a database a newer version migrated, so nothing was changed: set spec.image.tag to ${migrated} or newer (going back needs a restore of a database backup taken before the upgrade, on a new IdentityServer)`;
}
