import { App, Chart } from 'cdk8s';
import type { IdentityServer } from '../../../generated/types/crds/identityserver.ts';
import { CnpgDatabase } from './cnpg-database.ts';
import { type Credentials, CredentialsSecret } from './credentials-secret.ts';
import { KeycloakDeployment } from './keycloak-deployment.ts';
import { KeycloakIngress } from './keycloak-ingress.ts';
import { KeycloakServices } from './keycloak-services.ts';
import type { KubeObject } from './kube-object.ts';
import { resolveServer } from './resolved-server.ts';

/** What an IdentityServer compile needs from the world, passed in so the compile stays pure. */
export type ServerInputs = {
  /** The bootstrap admin: generated once by the controller and kept in <name>-admin-credentials; absent once the
   * operator's own identity exists and that Secret was deleted (the operator no longer needs it). */
  readonly admin?: Credentials;
  /** The database credentials read from the database namespace, copied into <name>-db-credentials. */
  readonly database: Credentials;
  /** Pods of another Keycloak version still run: keep the Deployment at zero replicas until they are gone. */
  readonly stopped?: boolean;
};

/** Compiles an IdentityServer into its Secrets, Services, Deployment, Ingress and CNPG Database, in a stable order. */
export function compileIdentityServer(server: IdentityServer, inputs: ServerInputs): KubeObject[] {
  const resolved = resolveServer(server);
  const chart = new Chart(new App(), resolved.name, { disableResourceNameHashes: true });
  if (inputs.admin)
    new CredentialsSecret(chart, 'admin-credentials', {
      server,
      name: resolved.adminSecretName,
      credentials: inputs.admin,
    });
  new CredentialsSecret(chart, 'db-credentials', {
    server,
    name: resolved.dbSecretName,
    credentials: inputs.database,
  });
  new KeycloakServices(chart, 'services', { server, resolved });
  new KeycloakDeployment(chart, 'deployment', { server, resolved, stopped: inputs.stopped });
  new KeycloakIngress(chart, 'ingress', { server, resolved });
  new CnpgDatabase(chart, 'database', { server, resolved, owner: inputs.database.username });
  return chart.toJson() as KubeObject[];
}
