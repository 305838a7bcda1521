// The narrow Kubernetes surface the controllers use. The real implementation talks REST over undici
// (kube-rest-client.ts); tests use an in-memory one. Keeping it narrow keeps every controller testable without
// an API server and makes each request the operator sends visible in one place.
import type { KubeObject } from '../compile/kube-object.ts';

/** Names one object: its type (apiVersion and kind), namespace and name. */
export type ObjectRef = {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
};

/** An event about an object, recorded in the cluster for `kubectl describe` and `kubectl get events`. */
export type KubeEvent = {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
};

/** The operations the operator performs against the API server. */
export type KubeClient = {
  /** The object, or undefined when it does not exist (404). A 403 throws a RealmforgeError of kind auth. */
  get(ref: ObjectRef): Promise<KubeObject | undefined>;
  /** Objects of one type in a namespace ('' for all namespaces), optionally filtered by a label selector such as `a=b,c=d`. */
  list(
    type: { apiVersion: string; kind: string },
    namespace: string,
    labelSelector?: string,
  ): Promise<KubeObject[]>;
  /** Server-side apply with field manager `realmforge` and force; returns the object as stored. */
  apply(object: KubeObject): Promise<KubeObject>;
  /** Server-side apply of `status` on the status subresource of `ref`. */
  applyStatus(ref: ObjectRef, status: Record<string, unknown>): Promise<void>;
  /** Deletes the object; a missing object is not an error. */
  delete(ref: ObjectRef): Promise<void>;
  /** Records an event about `about` (best effort: failures are logged, never thrown). */
  event(about: KubeObject, event: KubeEvent): Promise<void>;
};

/** The reference to an object. */
export function refOf(object: KubeObject): ObjectRef {
  return {
    apiVersion: object.apiVersion,
    kind: object.kind,
    namespace: object.metadata.namespace,
    name: object.metadata.name,
  };
}

/** A stable string for an object reference, used in logs and test assertions: `Kind ns/name`. */
export function refString(ref: ObjectRef): string {
  return `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
}
