import type { V1Container, V1DeploymentSpec, V1Probe } from '@kubernetes/client-node';
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import type { IdentityServer, ProbeTiming } from '../../../generated/types/crds/identityserver.ts';
import { kerberosVolumes } from './kerberos-keytabs.ts';
import { keycloakEnv } from './keycloak-env.ts';
import { serverLabels, serverSelector } from './kube-object.ts';
import { canonicalResources } from './quantity.ts';
import type { ResolvedServer } from './resolved-server.ts';
import { ownedMetadata } from './server-metadata.ts';

/** Properties of the Keycloak Deployment construct. */
export type KeycloakDeploymentProps = {
  readonly server: IdentityServer;
  readonly resolved: ResolvedServer;
  /** Zero replicas (the same template otherwise) while another Keycloak version's pods are stopping. */
  readonly stopped?: boolean;
};

const defaultResources = { requests: { cpu: '500m', memory: '1Gi' }, limits: { memory: '2Gi' } };

// A zero is left out: the API server does not store zero-valued probe fields, and a field written but never
// stored would look like drift on every resync.
const probe = (path: string, timing: Required<ProbeTiming>): V1Probe => ({
  httpGet: { path, port: 'management', scheme: 'HTTP' },
  ...Object.fromEntries(Object.entries(timing).filter(([, v]) => v !== 0)),
});

/** The Keycloak Deployment: production mode, health on the management port, non-root, env from Secrets. */
export class KeycloakDeployment extends Construct {
  constructor(scope: Construct, id: string, props: KeycloakDeploymentProps) {
    super(scope, id);
    const { server, resolved: s } = props;
    const ports = [
      { name: 'http', containerPort: 8080, protocol: 'TCP' },
      { name: 'management', containerPort: 9000, protocol: 'TCP' },
      ...(s.replicas > 1 ? [{ name: 'jgroups', containerPort: 7800, protocol: 'TCP' }] : []),
    ];
    const kerberos = kerberosVolumes(server);
    const container: V1Container = {
      name: 'keycloak',
      image: s.image,
      ...(s.pullPolicy ? { imagePullPolicy: s.pullPolicy } : {}),
      args: ['start'],
      env: keycloakEnv(server, s),
      ports,
      // Canonical quantities (1000m is stored as 1): what the API server keeps is what a resync compares.
      resources: canonicalResources((server.spec.resources as V1Container['resources']) ?? defaultResources),
      startupProbe: probe('/health/started', s.probes.startup),
      livenessProbe: probe('/health/live', s.probes.liveness),
      readinessProbe: probe('/health/ready', s.probes.readiness),
      ...(kerberos.mounts.length ? { volumeMounts: kerberos.mounts } : {}),
      securityContext: {
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
        runAsNonRoot: true,
      },
    };
    const spec: V1DeploymentSpec = {
      replicas: props.stopped ? 0 : s.replicas,
      selector: { matchLabels: serverSelector(server) },
      template: {
        metadata: { labels: serverLabels(server) },
        spec: {
          containers: [container],
          ...(kerberos.volumes.length ? { volumes: kerberos.volumes } : {}),
          securityContext: {
            runAsNonRoot: true,
            runAsUser: 1000,
            seccompProfile: { type: 'RuntimeDefault' },
          },
        },
      },
    };
    new ApiObject(this, 'deployment', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: ownedMetadata(server, s.serviceName),
      spec,
    });
  }
}
