// REST paths of Kubernetes types, found through API discovery rather than a hard-coded table: the resource list
// of each group-version (/api/v1, /apis/<group>/<version>) is read once and cached, so any kind the API server
// serves (CloudNativePG's Cluster and Database included) maps to its plural and scope. A kind missing from the
// cached list, or a group-version the server does not serve (CRDs not installed yet), is looked up again at most
// every 30 s, so installing CRDs later needs no restart and a missing type does not flood the API server.
import type { Clock } from '../../core/clock.ts';
import { type KubeTransport, kubeError } from './kube-transport.ts';

/** A type the API server serves: its plural resource name and whether its objects live in a namespace. */
export type ApiResource = { readonly plural: string; readonly namespaced: boolean };

/** apiVersion and kind, as on any object. */
export type TypeRef = { readonly apiVersion: string; readonly kind: string };

/** Resolves a type to its resource, or undefined when the API server does not serve it. */
export type KubeResources = { resolve(type: TypeRef): Promise<ApiResource | undefined> };

/** How long a discovery answer that lacked the wanted kind is trusted before asking again. */
export const discoveryRetryMs = 30_000;

/** The discovery path of a group-version: /api/v1 for the core group, /apis/<group>/<version> otherwise. */
export function groupVersionPath(apiVersion: string): string {
  return apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
}

/** The REST path of a collection (no name) or of one object, optionally of its subresource such as status. */
export function resourcePath(
  apiVersion: string,
  resource: ApiResource,
  at: { namespace?: string; name?: string; subresource?: string } = {},
): string {
  let path = groupVersionPath(apiVersion);
  if (resource.namespaced && at.namespace) path += `/namespaces/${encodeURIComponent(at.namespace)}`;
  path += `/${resource.plural}`;
  if (at.name !== undefined) path += `/${encodeURIComponent(at.name)}`;
  if (at.subresource) path += `/${at.subresource}`;
  return path;
}

type Discovered = { at: number; kinds: Map<string, ApiResource> };

/** Discovery over `transport`, cached per group-version. */
export function kubeResources(transport: KubeTransport, clock: Clock): KubeResources {
  const cache = new Map<string, Promise<Discovered>>();
  const fetchGroup = async (apiVersion: string): Promise<Discovered> => {
    const path = groupVersionPath(apiVersion);
    const res = await transport.request('GET', path);
    const kinds = new Map<string, ApiResource>();
    if (res.status === 404) return { at: clock.now(), kinds };
    if (res.status !== 200)
      throw kubeError(`discovering the types of ${apiVersion} (${path})`, res.status, res.body);
    const list = (res.body as { resources?: { name: string; kind: string; namespaced: boolean }[] })
      .resources;
    for (const r of list ?? []) {
      // Subresources (deployments/status) share the kind of their parent; keep the resource itself.
      if (!r.name.includes('/')) kinds.set(r.kind, { plural: r.name, namespaced: r.namespaced });
    }
    return { at: clock.now(), kinds };
  };
  const load = (apiVersion: string) => {
    const pending = fetchGroup(apiVersion);
    cache.set(apiVersion, pending);
    // A failed lookup is not cached: the next call asks again.
    pending.catch(() => cache.delete(apiVersion));
    return pending;
  };
  return {
    async resolve({ apiVersion, kind }) {
      const cached = cache.get(apiVersion) ?? load(apiVersion);
      let found = await cached;
      if (!found.kinds.has(kind) && clock.now() - found.at >= discoveryRetryMs) {
        // Concurrent callers share one new lookup.
        const current = cache.get(apiVersion);
        found = await (current && current !== cached ? current : load(apiVersion));
      }
      return found.kinds.get(kind);
    },
  };
}
