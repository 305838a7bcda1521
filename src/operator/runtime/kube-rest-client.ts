// The KubeClient over the API server's REST interface: paths from discovery, reads with GET (lists paged 500 at a
// time), server-side apply as PATCH application/apply-patch+yaml with fieldManager=realmforge, force=true and
// strict field validation (the status through the status subresource), deletes in the background, aggregated
// Events. Unexpected statuses become typed errors: 401/403 auth, 409 conflict, 400/422 validation, 5xx and
// network failures transient.

import type { Clock } from '../../core/clock.ts';
import { RealmforgeError } from '../../core/errors.ts';
import { fieldManager, type KubeObject } from '../compile/kube-object.ts';
import { type Fence, openFence } from './fence.ts';
import { type KubeClient, type ObjectRef, refString } from './kube-client.ts';
import { eventRecorder } from './kube-events.ts';
import { type ApiResource, type KubeResources, resourcePath, type TypeRef } from './kube-resources.ts';
import { type KubeTransport, kubeError } from './kube-transport.ts';

/** Objects per page when listing. */
export const listPageSize = 500;

// Strict field validation: a field the schema does not know (a typo in a compiled manifest) fails the apply
// with its name instead of being dropped with a warning nobody reads.
const applyQuery = { fieldManager, force: true, fieldValidation: 'Strict' };
const applyType = 'application/apply-patch+yaml';

/**
 * A KubeClient talking to the API server through `transport`, acting as field manager `realmforge`; every write
 * attempt passes `fence` (checked before each retry, aborted in flight when leadership is lost).
 */
export function restKubeClient(
  transport: KubeTransport,
  resources: KubeResources,
  clock: Clock,
  fence: Fence = openFence,
): KubeClient {
  const fenced = { fence: fence.check, signal: fence.signal };
  const record = eventRecorder(transport, clock, async (namespace) =>
    resourcePath('v1', await served({ apiVersion: 'v1', kind: 'Event' }, 'recording an event'), {
      namespace,
    }),
  );
  const served = async (type: TypeRef, what: string): Promise<ApiResource> => {
    const resource = await resources.resolve(type);
    if (!resource) {
      throw new RealmforgeError(
        'not_found',
        `${what}: the API server does not serve ${type.kind} (${type.apiVersion}); install its CustomResourceDefinition`,
      );
    }
    return resource;
  };
  const objectPath = async (ref: ObjectRef, what: string, subresource?: string) =>
    resourcePath(ref.apiVersion, await served(ref, what), { ...ref, subresource });
  return {
    async get(ref) {
      const resource = await resources.resolve(ref);
      if (!resource) return undefined;
      const what = `reading ${refString(ref)}`;
      const res = await transport.request('GET', resourcePath(ref.apiVersion, resource, ref));
      if (res.status === 404) return undefined;
      if (res.status !== 200) throw kubeError(what, res.status, res.body);
      return res.body as KubeObject;
    },
    async list(type, namespace, labelSelector) {
      const resource = await resources.resolve(type);
      if (!resource) return [];
      const what = `listing ${type.kind} in ${namespace}`;
      const path = resourcePath(type.apiVersion, resource, { namespace });
      const items: KubeObject[] = [];
      let next: string | undefined;
      do {
        const res = await transport.request('GET', path, {
          query: { labelSelector, limit: listPageSize, continue: next },
        });
        if (res.status === 404) return [];
        if (res.status !== 200) throw kubeError(what, res.status, res.body);
        const page = res.body as { items?: KubeObject[]; metadata?: { continue?: string } };
        for (const o of page.items ?? []) items.push({ ...o, apiVersion: type.apiVersion, kind: type.kind });
        next = page.metadata?.continue || undefined;
      } while (next);
      return items;
    },
    async apply(object) {
      const ref = { ...object, ...object.metadata };
      const what = `applying ${refString(ref)}`;
      const res = await transport.request('PATCH', await objectPath(ref, what), {
        query: applyQuery,
        body: object,
        contentType: applyType,
        ...fenced,
      });
      if (res.status !== 200 && res.status !== 201) throw kubeError(what, res.status, res.body);
      return res.body as KubeObject;
    },
    async applyStatus(ref, status) {
      const what = `writing the status of ${refString(ref)}`;
      const body = {
        apiVersion: ref.apiVersion,
        kind: ref.kind,
        metadata: { name: ref.name, namespace: ref.namespace },
        status,
      };
      const res = await transport.request('PATCH', await objectPath(ref, what, 'status'), {
        query: applyQuery,
        body,
        contentType: applyType,
        ...fenced,
      });
      if (res.status !== 200 && res.status !== 201) throw kubeError(what, res.status, res.body);
    },
    async delete(ref) {
      const resource = await resources.resolve(ref);
      if (!resource) return; // a type the server does not serve has no objects to delete
      const what = `deleting ${refString(ref)}`;
      const res = await transport.request('DELETE', resourcePath(ref.apiVersion, resource, ref), {
        query: { propagationPolicy: 'Background' },
        ...fenced,
      });
      if (res.status === 404) return;
      if (res.status !== 200 && res.status !== 202) throw kubeError(what, res.status, res.body);
    },
    event: (about, event) => record(about, event, fence.check),
  };
}
