// An in-memory KubeClient for controller tests: a map of objects plus a log of every write it received.
import { RealmforgeError } from '../../../src/core/errors.ts';
import type { KubeObject } from '../../../src/operator/compile/kube-object.ts';
import { canonicalResources } from '../../../src/operator/compile/quantity.ts';
import type { KubeClient, KubeEvent, ObjectRef } from '../../../src/operator/runtime/kube-client.ts';

const keyOf = (r: ObjectRef) => `${r.kind}/${r.namespace ?? ''}/${r.name}`;

/** The fake and what it saw. */
export type FakeKube = KubeClient & {
  objects: Map<string, KubeObject>;
  writes: string[];
  events: KubeEvent[];
  forbidden: Set<string>;
  put(object: KubeObject): void;
  find(kind: string, namespace: string, name: string): KubeObject | undefined;
};

/** The object as the API server stores it: container resource quantities in canonical form (1000m -> 1). */
function storedForm(object: KubeObject): KubeObject {
  const podSpec = (
    object.spec as { template?: { spec?: { containers?: { resources?: object }[] } } } | undefined
  )?.template?.spec;
  if (!podSpec?.containers) return object;
  const copy = structuredClone(object);
  const containers = (copy.spec as { template: { spec: { containers: { resources?: object }[] } } }).template
    .spec.containers;
  for (const c of containers) if (c.resources) c.resources = canonicalResources(c.resources);
  return copy;
}

const subdomain = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const dns1035 = /^(?=.{1,63}$)[a-z]([-a-z0-9]*[a-z0-9])?$/;
const labelValue = /^(?=.{0,63}$)([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

/** What the API server refuses with 422: an invalid name for the kind, or an invalid label value. */
function invalid(object: KubeObject): string | undefined {
  const { name, labels } = object.metadata;
  if (!(object.kind === 'Service' ? dns1035 : subdomain).test(name))
    return `metadata.name: Invalid value: "${name}"`;
  const bad = Object.entries(labels ?? {}).find(([, v]) => !labelValue.test(v));
  return bad ? `metadata.labels: Invalid value: "${bad[1]}"` : undefined;
}

/** A fake cluster holding `initial`; reads of keys in `forbidden` (Kind/ns/name) throw an auth error. */
export function fakeKube(initial: KubeObject[] = []): FakeKube {
  const objects = new Map<string, KubeObject>();
  const writes: string[] = [];
  const events: KubeEvent[] = [];
  const forbidden = new Set<string>();
  let version = 1;
  const put = (o: KubeObject) => {
    objects.set(
      keyOf({ ...o, ...o.metadata }),
      structuredClone({
        ...o,
        metadata: {
          ...o.metadata,
          resourceVersion: String(version++),
          uid: o.metadata.uid ?? `uid-${o.metadata.name}`,
        },
      }),
    );
  };
  for (const o of initial) put(o);
  return {
    objects,
    writes,
    events,
    forbidden,
    put,
    find: (kind, namespace, name) => objects.get(`${kind}/${namespace}/${name}`),
    async get(ref) {
      if (forbidden.has(keyOf(ref))) throw new RealmforgeError('auth', `forbidden: ${keyOf(ref)}`);
      const o = objects.get(keyOf(ref));
      return o ? structuredClone(o) : undefined;
    },
    async list(type, namespace, selector) {
      const want = (selector ?? '')
        .split(',')
        .filter(Boolean)
        .map((s) => s.split('='));
      const bad = want.find(([, v]) => !labelValue.test(v ?? ''));
      if (bad)
        throw new RealmforgeError(
          'validation',
          `unable to parse requirement: invalid label value: "${bad[1]}"`,
        );
      return [...objects.values()]
        .filter(
          (o) =>
            o.kind === type.kind &&
            (namespace === '' || o.metadata.namespace === namespace) &&
            want.every(([k, v]) => o.metadata.labels?.[k] === v),
        )
        .map((o) => structuredClone(o));
    },
    async apply(applied) {
      writes.push(`apply ${keyOf({ ...applied, ...applied.metadata })}`);
      const refused = invalid(applied);
      if (refused) throw new RealmforgeError('validation', `${applied.kind} is invalid: ${refused}`);
      const object = storedForm(applied);
      const key = keyOf({ ...object, ...object.metadata });
      const old = objects.get(key);
      // A metadata-only apply (a finalizer) keeps the rest of the object, as server-side apply does.
      const partial = old && Object.keys(object).every((k) => ['apiVersion', 'kind', 'metadata'].includes(k));
      const base = partial ? old : { status: old?.status };
      const metadata = partial ? { ...old.metadata, ...object.metadata } : object.metadata;
      // The API server bumps metadata.generation when the spec changes (controllers compare observedGeneration).
      const previous = old?.metadata.generation ?? 0;
      const specChanged = !old || (!partial && JSON.stringify(old.spec) !== JSON.stringify(object.spec));
      const generation = specChanged ? previous + 1 : previous;
      put({ ...base, ...object, metadata: { ...metadata, uid: old?.metadata.uid, generation } });
      const stored = objects.get(key) as KubeObject;
      // The API server finishes a deletion once the last finalizer is gone.
      if (stored.metadata.deletionTimestamp && !stored.metadata.finalizers?.length) objects.delete(key);
      return structuredClone(stored);
    },
    async applyStatus(ref, status) {
      writes.push(`status ${keyOf(ref)}`);
      const o = objects.get(keyOf(ref));
      if (o) o.status = structuredClone(status);
    },
    async delete(ref) {
      writes.push(`delete ${keyOf(ref)}`);
      objects.delete(keyOf(ref));
    },
    async event(_about, event) {
      events.push(event);
    },
  };
}
