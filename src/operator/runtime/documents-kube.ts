// A read-only KubeClient over manifests given on the command line (`realmforge plan`): the Secrets a spec refers
// to are read from the files as the operator reads them from the cluster, and any write is a bug, refused.
import { RealmforgeError } from '../../core/errors.ts';
import type { KubeObject } from '../compile/kube-object.ts';
import type { KubeClient, ObjectRef } from './kube-client.ts';

const same = (o: KubeObject, ref: ObjectRef) =>
  o.kind === ref.kind &&
  o.metadata.name === ref.name &&
  (o.metadata.namespace ?? 'default') === ref.namespace;

/** Secrets written with stringData read as the API server stores them: base64 data. */
function stored(o: KubeObject): KubeObject {
  const { stringData, ...rest } = o as KubeObject & { stringData?: Record<string, string> };
  if (o.kind !== 'Secret' || !stringData) return o;
  const data = { ...(rest as { data?: Record<string, string> }).data };
  for (const [k, v] of Object.entries(stringData)) data[k] = Buffer.from(v, 'utf8').toString('base64');
  return { ...rest, data } as KubeObject;
}

export function documentsKube(objects: readonly KubeObject[]): KubeClient {
  const all = objects.map(stored);
  const refuse = (what: string) => () =>
    Promise.reject(new RealmforgeError('internal', `${what} while planning: plan writes nothing`));
  return {
    get: async (ref) => all.find((o) => same(o, { ...ref, namespace: ref.namespace ?? 'default' })),
    list: async (type, namespace) =>
      all.filter(
        (o) => o.kind === type.kind && (!namespace || (o.metadata.namespace ?? 'default') === namespace),
      ),
    apply: refuse('apply'),
    applyStatus: refuse('status write'),
    delete: refuse('delete'),
    event: async () => {},
  };
}
