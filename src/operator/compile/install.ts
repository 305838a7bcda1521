import { App, Chart } from 'cdk8s';
import { addIdentityCrds } from './crd.ts';
import type { KubeObject } from './kube-object.ts';
import { OperatorDeployment, type OperatorSettings, operatorName } from './operator-deployment.ts';
import { OperatorRbac } from './operator-rbac.ts';
import type { SchemaDocuments } from './structural-schema.ts';

/** The defaults of an installation: docs/decisions.md's names and rate limits (50/5 TPS, bursts 100/10). */
export const defaultOperatorSettings: OperatorSettings = {
  namespace: 'realmforge-system',
  image: 'ghcr.io/realmforge/realmforge-operator:0.1.0',
  replicas: 1,
  globalRateLimitTps: 50,
  globalRateLimitBurst: 100,
  namespaceRateLimitTps: 5,
  namespaceRateLimitBurst: 10,
  driftIntervalSeconds: 60,
  readyGraceSeconds: 600,
  metricsPort: 8081,
  logLevel: 'info',
  resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
};

/** Compiles the three CRDs from the JSON Schemas. */
export function compileCrds(schemas: SchemaDocuments): KubeObject[] {
  const chart = new Chart(new App(), 'crds', { disableResourceNameHashes: true });
  addIdentityCrds(chart, schemas);
  return chart.toJson() as KubeObject[];
}

/** Compiles the operator installation: Namespace, ServiceAccount, RBAC and Deployment. */
export function compileOperatorInstall(settings: OperatorSettings = defaultOperatorSettings): KubeObject[] {
  const chart = new Chart(new App(), 'operator', { disableResourceNameHashes: true });
  new OperatorDeployment(chart, 'operator', settings);
  new OperatorRbac(chart, 'rbac', { namespace: settings.namespace, serviceAccount: operatorName });
  return chart.toJson() as KubeObject[];
}
