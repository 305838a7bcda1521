import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import type { IdentityServer } from '../../../generated/types/crds/identityserver.ts';
import type { ResolvedServer } from './resolved-server.ts';
import { ownedMetadata } from './server-metadata.ts';

/** Properties of the Keycloak Ingress construct. */
export type KeycloakIngressProps = { readonly server: IdentityServer; readonly resolved: ResolvedServer };

/** Keycloak's public paths; /admin/ and the management port 9000 are never routed. */
export const publicPaths: readonly { path: string; pathType: 'Prefix' | 'Exact' }[] = [
  { path: '/realms/', pathType: 'Prefix' },
  { path: '/resources/', pathType: 'Prefix' },
  { path: '/.well-known/', pathType: 'Prefix' },
  { path: '/js/', pathType: 'Prefix' },
  { path: '/robots.txt', pathType: 'Exact' },
];

/** The Ingress of an IdentityServer, routing only the public paths to the http port. */
export class KeycloakIngress extends Construct {
  constructor(scope: Construct, id: string, props: KeycloakIngressProps) {
    super(scope, id);
    const { server, resolved: s } = props;
    const ingress = s.ingress;
    if (!ingress) return;
    const annotations = Object.keys(ingress.annotations).length ? { annotations: ingress.annotations } : {};
    new ApiObject(this, 'ingress', {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: ownedMetadata(server, s.serviceName, annotations),
      spec: {
        ...(ingress.className ? { ingressClassName: ingress.className } : {}),
        ...(ingress.tlsSecretName
          ? { tls: [{ hosts: [ingress.host], secretName: ingress.tlsSecretName }] }
          : {}),
        rules: [
          {
            host: ingress.host,
            http: {
              paths: publicPaths.map(({ path, pathType }) => ({
                path,
                pathType,
                backend: { service: { name: s.serviceName, port: { name: 'http' } } },
              })),
            },
          },
        ],
      },
    });
  }
}
