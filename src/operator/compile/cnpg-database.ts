import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import type { IdentityServer } from '../../../generated/types/crds/identityserver.ts';
import { ownerReferences, serverLabels } from './kube-object.ts';
import { labelValue, objectName } from './names.ts';
import type { ResolvedServer } from './resolved-server.ts';

/** Properties of the CloudNativePG Database construct. */
export type CnpgDatabaseProps = {
  readonly server: IdentityServer;
  readonly resolved: ResolvedServer;
  /** The role that owns the database: the username in the database credentials Secret. */
  readonly owner: string;
};

/** Label on objects outside the server's namespace, where an owner reference cannot reach. */
export const serverRefLabel = 'realmforge.dev/identity-server';

/**
 * The name of the Database object for a server: unique per server within the database namespace, and a valid
 * object name even when the PostgreSQL database name holds underscores.
 */
export function databaseObjectName(s: ResolvedServer): string {
  const prefix = s.database.namespace === s.namespace ? s.name : `${s.namespace}-${s.name}`;
  return objectName(`${prefix}-${s.database.name.replaceAll('_', '-')}`.replace(/-+$/, ''));
}

/** The value of serverRefLabel for a server: what its cleanup lists by, so always a valid label value. */
export const serverRefValue = (namespace: string, name: string) => labelValue(`${namespace}.${name}`);

/** A postgresql.cnpg.io/v1 Database that ensures Keycloak's database exists on the named cluster. */
export class CnpgDatabase extends Construct {
  constructor(scope: Construct, id: string, props: CnpgDatabaseProps) {
    super(scope, id);
    const { server, resolved: s } = props;
    new ApiObject(this, 'database', {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Database',
      metadata: {
        name: databaseObjectName(s),
        namespace: s.database.namespace,
        // Owner references cannot cross namespaces; there the label ties the object to its server for cleanup.
        labels: { ...serverLabels(server), [serverRefLabel]: serverRefValue(s.namespace, s.name) },
        ...(s.database.namespace === s.namespace ? { ownerReferences: ownerReferences(server) } : {}),
      },
      spec: {
        cluster: { name: s.database.cluster },
        ensure: 'present',
        name: s.database.name,
        owner: props.owner,
      },
    });
  }
}
