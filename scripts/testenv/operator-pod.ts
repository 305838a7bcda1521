// The operator's command line as a kubelet would start a pod of its Deployment: the container's args and its
// environment (values and fieldRefs such as POD_NAMESPACE and POD_NAME resolved for that pod), read back from the
// API server, so that a suite runs exactly what a chart or manifest installed.
import { createServer } from 'node:net';
import type { V1Pod } from '@kubernetes/client-node';
import type { TestEnv } from './harness.ts';
import { resolveEnv } from './kubelet-env.ts';

/** What a pod of the Deployment would run (the image's entrypoint is `node bin/realmforge.js`). */
export type PodCommand = {
  readonly podName: string;
  readonly namespace: string;
  readonly serviceAccount: string;
  readonly args: string[];
  readonly env: Record<string, string>;
  /** The Deployment's metrics port when it was busy on this machine and `--metrics-port=0` was run instead. */
  readonly busyMetricsPort?: number;
};

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The command of a pod of Deployment `namespace/name`, with a pod name as the ReplicaSet would give it. */
export async function podCommand(env: TestEnv, namespace: string, name: string): Promise<PodCommand> {
  const deployment = await env.apps.readNamespacedDeployment({ namespace, name });
  const template = deployment.spec?.template;
  const container = template?.spec?.containers?.[0];
  if (!template?.spec || !container) throw new Error(`Deployment ${namespace}/${name} has no container`);
  if (container.command?.length) {
    throw new Error(`Deployment ${namespace}/${name} overrides the image entrypoint: ${container.command}`);
  }
  const podName = `${name}-${Math.random().toString(36).slice(2, 12)}-${Math.random().toString(36).slice(2, 7)}`;
  const pod: V1Pod = { metadata: { ...template.metadata, name: podName, namespace }, spec: template.spec };
  const vars = await resolveEnv(pod, container, async (kind, ns, objectName) => {
    const plural = kind === 'Secret' ? 'secrets' : 'configmaps';
    const res = await env.request('GET', `/api/v1/namespaces/${ns}/${plural}/${objectName}`);
    if (res.status !== 200) return undefined;
    const data: Record<string, string> = res.body.data ?? {};
    return kind === 'Secret'
      ? Object.fromEntries(
          Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
        )
      : data;
  });
  // A port the chart sets may be taken by another process on this shared machine; only then is it replaced.
  let busyMetricsPort: number | undefined;
  const args = [...(container.args ?? [])];
  const portArg = args.findIndex((a) => a.startsWith('--metrics-port='));
  if (portArg >= 0) {
    const port = Number(args[portArg].slice('--metrics-port='.length));
    if (!(await portFree(port))) {
      busyMetricsPort = port;
      args[portArg] = '--metrics-port=0';
    }
  }
  return {
    podName,
    namespace,
    serviceAccount: template.spec.serviceAccountName ?? 'default',
    args,
    env: vars,
    busyMetricsPort,
  };
}
