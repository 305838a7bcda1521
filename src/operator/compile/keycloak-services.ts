import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import type { IdentityServer } from '../../../generated/types/crds/identityserver.ts';
import { serverSelector } from './kube-object.ts';
import type { ResolvedServer } from './resolved-server.ts';
import { ownedMetadata } from './server-metadata.ts';

/** Properties of the Keycloak Services construct. */
export type KeycloakServicesProps = { readonly server: IdentityServer; readonly resolved: ResolvedServer };

/** The Service on 8080 (http) and 9000 (management), and a headless discovery Service when clustered. */
export class KeycloakServices extends Construct {
  constructor(scope: Construct, id: string, props: KeycloakServicesProps) {
    super(scope, id);
    const { server, resolved: s } = props;
    new ApiObject(this, 'service', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: ownedMetadata(server, s.serviceName),
      spec: {
        type: 'ClusterIP',
        selector: serverSelector(server),
        ports: [
          { name: 'http', port: 8080, targetPort: 'http', protocol: 'TCP' },
          { name: 'management', port: 9000, targetPort: 'management', protocol: 'TCP' },
        ],
      },
    });
    if (s.replicas <= 1) return;
    new ApiObject(this, 'discovery', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: ownedMetadata(server, s.discoveryServiceName),
      spec: {
        clusterIP: 'None',
        // Pods must find each other before they are ready, or the cache cluster never forms.
        publishNotReadyAddresses: true,
        selector: serverSelector(server),
        ports: [{ name: 'jgroups', port: 7800, targetPort: 'jgroups', protocol: 'TCP' }],
      },
    });
  }
}
