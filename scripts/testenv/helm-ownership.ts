// Objects a Helm release is about to create that already exist without that release's ownership: other suites
// apply the same ServiceAccount and RBAC from dist-manifests/, and `helm install` refuses to adopt them. Removing
// them first lets the release create every object itself, so a suite proves the chart's objects.
import type { TestEnv } from './harness.ts';
import { restPath } from './kube-request.ts';

type Named = { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string } };

/** Deletes each of `objects` that exists and is not owned by Helm release `release`; returns what it deleted. */
export async function removeUnownedCopies(
  env: TestEnv,
  objects: readonly Named[],
  release: { name: string; namespace: string },
): Promise<string[]> {
  const removed: string[] = [];
  for (const o of objects) {
    const path = await restPath(env.state.kubeconfig, o);
    const live = await env.request('GET', path);
    if (live.status === 404) continue;
    const annotations = live.body?.metadata?.annotations ?? {};
    if (
      annotations['meta.helm.sh/release-name'] === release.name &&
      annotations['meta.helm.sh/release-namespace'] === release.namespace
    )
      continue;
    const res = await env.request('DELETE', path);
    if (res.status >= 300 && res.status !== 404) {
      throw new Error(`deleting ${o.kind} ${o.metadata?.name}: ${res.status} ${res.body?.message ?? ''}`);
    }
    removed.push(`${o.kind}/${o.metadata?.name}`);
  }
  return removed;
}
