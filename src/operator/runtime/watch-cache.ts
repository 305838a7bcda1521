// Reads from the watches the manager already runs (client-go's cached client): a get or list of a watched type is
// answered from the watch's cache, so a reconcile asks the API server only for writes and for what is not watched.
// A watch with a label selector holds only matching objects: a get it cannot find (and a list whose selector does
// not imply the watch's) still goes to the API server. Secrets cannot be watched cluster-wide (the operator is
// granted them per namespace), so the first successful read of a Secret in a namespace starts a watch of the
// operator's own Secrets (label app.kubernetes.io/managed-by=realmforge) in that namespace only.
import type { KubeObject } from '../compile/kube-object.ts';
import type { KubeClient, ObjectRef } from './kube-client.ts';
import type { WatchedType, WatchSource } from './watch-source.ts';

/** The label of everything the operator creates; the selector of its per-namespace Secret watches. */
export const ownedSelector = 'app.kubernetes.io/managed-by=realmforge';

type Entry = { type: WatchedType; source: WatchSource };

/** The manager's watches, readable by type; `watchNamespace` starts a namespaced watch (set by the manager). */
export type WatchCache = {
  register(type: WatchedType, source: WatchSource): void;
  /** Starts a watch of `type` in one namespace (installed by the manager; unset before it runs). */
  startNamespaced?: (type: WatchedType) => WatchSource;
  /** Forgets every watch (the manager stopped). */
  clear(): void;
  /** The cached object (undefined when the cache knows it does not exist), or 'ask' when it cannot tell. */
  get(ref: ObjectRef): KubeObject | undefined | 'ask';
  /** The cached objects, or 'ask' when no synced watch holds every object the selector could match. */
  list(
    type: { apiVersion: string; kind: string },
    namespace: string,
    selector?: string,
  ): KubeObject[] | 'ask';
  /** After a successful read of a Secret in `namespace`: watch the operator's Secrets there from now on. */
  sawSecretIn(namespace: string): void;
};

const labelsOf = (selector: string | undefined) =>
  new Map(
    (selector ?? '')
      .split(',')
      .filter(Boolean)
      .map((s) => s.split('=') as [string, string]),
  );

const matches = (o: KubeObject, selector: string | undefined) =>
  [...labelsOf(selector)].every(([k, v]) => o.metadata.labels?.[k] === v);

/** Whether every object `wanted` matches is also matched by `watched` (its labels include the watch's). */
const implies = (wanted: string | undefined, watched: string | undefined) => {
  const want = labelsOf(wanted);
  return [...labelsOf(watched)].every(([k, v]) => want.get(k) === v);
};

/** An empty cache; the manager registers its watches as it starts them. */
export function createWatchCache(): WatchCache {
  let entries: Entry[] = [];
  const secretNamespaces = new Set<string>();
  const synced = (apiVersion: string, kind: string, namespace?: string) =>
    entries.filter(
      (e) =>
        e.type.apiVersion === apiVersion &&
        e.type.kind === kind &&
        e.source.synced() &&
        (e.type.namespace === undefined || e.type.namespace === namespace),
    );
  const clone = (o: KubeObject) => structuredClone(o);
  const cache: WatchCache = {
    register(type, source) {
      entries.push({ type, source });
    },
    clear() {
      entries = [];
      secretNamespaces.clear();
    },
    get(ref) {
      const found = synced(ref.apiVersion, ref.kind, ref.namespace);
      if (found.length === 0) return 'ask';
      for (const { source } of found) {
        const hit = source
          .objects()
          .find(
            (o) => o.metadata?.name === ref.name && (o.metadata?.namespace ?? '') === (ref.namespace ?? ''),
          );
        if (hit) return clone(hit as KubeObject);
      }
      return found.some((e) => !e.type.labelSelector) ? undefined : 'ask';
    },
    list(type, namespace, selector) {
      const scope = namespace === '' ? undefined : namespace;
      const entry = synced(type.apiVersion, type.kind, scope).find(
        (e) =>
          implies(selector, e.type.labelSelector) && (e.type.namespace === undefined || scope !== undefined),
      );
      if (!entry) return 'ask';
      return (entry.source.objects() as KubeObject[])
        .filter((o) => (scope === undefined || o.metadata.namespace === scope) && matches(o, selector))
        .map(clone);
    },
    sawSecretIn(namespace) {
      if (!cache.startNamespaced || secretNamespaces.has(namespace)) return;
      secretNamespaces.add(namespace);
      const type = { apiVersion: 'v1', kind: 'Secret', labelSelector: ownedSelector, namespace };
      cache.register(type, cache.startNamespaced(type));
    },
  };
  return cache;
}

/** A KubeClient whose reads come from `cache` where it can answer; writes and other reads pass through. */
export function cachedKube(kube: KubeClient, cache: WatchCache): KubeClient {
  return {
    ...kube,
    async get(ref) {
      const cached = cache.get(ref);
      if (cached !== 'ask') return cached;
      const live = await kube.get(ref);
      if (ref.kind === 'Secret' && ref.apiVersion === 'v1' && ref.namespace) cache.sawSecretIn(ref.namespace);
      return live;
    },
    async list(type, namespace, selector) {
      const cached = cache.list(type, namespace, selector);
      return cached === 'ask' ? kube.list(type, namespace, selector) : cached;
    },
  };
}
