// `realmforge dev` (npm start) runs the operator as a process on this machine, not as a Deployment, and records
// where in a ConfigMap beside the operator's RBAC. A plain `realmforge doctor` (the KUBECONFIG dev up prints, no
// --operator-url, no REALMFORGE_ENDPOINT_MAP) reads it and checks that environment as it is, instead of failing on
// a Deployment that npm start never creates.
import type { KubeObject } from '../compile/kube-object.ts';
import type { KubeClient } from '../runtime/kube-client.ts';

/** The ConfigMap's name, in the operator's namespace. */
export const devRecordName = 'realmforge-dev';

/** Where the dev operator answers (/healthz, /metrics) and the endpoint map that reaches the environment's services. */
export type DevRecord = { readonly operatorUrl: string; readonly endpointMap?: string };

/** The ConfigMap dev up applies. */
export function devRecordConfigMap(namespace: string, record: DevRecord): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: devRecordName, namespace, labels: { 'app.kubernetes.io/part-of': 'realmforge' } },
    data: {
      operatorUrl: record.operatorUrl,
      ...(record.endpointMap ? { endpointMap: record.endpointMap } : {}),
    },
  } as KubeObject;
}

/** The record, or undefined when there is none (any cluster but dev's) or it cannot be read. */
export async function readDevRecord(kube: KubeClient, namespace: string): Promise<DevRecord | undefined> {
  const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace, name: devRecordName };
  const found = (await kube.get(ref).catch(() => undefined)) as { data?: Record<string, string> } | undefined;
  const url = found?.data?.operatorUrl;
  if (!url || !/^https?:\/\/[^/]+/.test(url)) return undefined;
  return { operatorUrl: url, endpointMap: found?.data?.endpointMap };
}
