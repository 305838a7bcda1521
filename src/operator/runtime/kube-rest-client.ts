// The KubeClient over the API server's REST interface: paths from discovery, reads with GET (lists paged 500 at a
// time), server-side apply as PATCH application/apply-patch+yaml with fieldManager=realmforge and force=true (the
// status through the status subresource), deletes in the background, core/v1 Events. Unexpected statuses become
// typed errors: 401/403 auth, 409 conflict, 400/422 validation, 5xx and network failures transient.
import { RealmforgeError } from '../../core/errors.ts';
import { fieldManager, type KubeObject } from '../compile/kube-object.ts';
import type { Clock } from './clock.ts';
import { type KubeClient, type ObjectRef, refString } from './kube-client.ts';
import { type ApiResource, type KubeResources, resourcePath, type TypeRef } from './kube-resources.ts';
import { type KubeTransport, kubeError } from './kube-transport.ts';

/** Objects per page when listing. */
export const listPageSize = 500;

const applyQuery = { fieldManager, force: true };
const applyType = 'application/apply-patch+yaml';

/** A KubeClient talking to the API server through `transport`, acting as field manager `realmforge`. */
export function restKubeClient(transport: KubeTransport, resources: KubeResources, clock: Clock): KubeClient {
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
      });
      if (res.status !== 200 && res.status !== 201) throw kubeError(what, res.status, res.body);
    },
    async delete(ref) {
      const resource = await resources.resolve(ref);
      if (!resource) return; // a type the server does not serve has no objects to delete
      const what = `deleting ${refString(ref)}`;
      const res = await transport.request('DELETE', resourcePath(ref.apiVersion, resource, ref), {
        query: { propagationPolicy: 'Background' },
      });
      if (res.status === 404) return;
      if (res.status !== 200 && res.status !== 202) throw kubeError(what, res.status, res.body);
    },
    async event(about, event) {
      const namespace = about.metadata.namespace ?? 'default';
      const now = new Date(clock.now()).toISOString();
      const body = {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { generateName: `${about.metadata.name}.`, namespace },
        involvedObject: {
          apiVersion: about.apiVersion,
          kind: about.kind,
          name: about.metadata.name,
          namespace,
          uid: about.metadata.uid,
        },
        type: event.type,
        reason: event.reason,
        message: event.message.slice(0, 1024),
        source: { component: 'realmforge' },
        firstTimestamp: now,
        lastTimestamp: now,
        count: 1,
      };
      try {
        const resource = await served({ apiVersion: 'v1', kind: 'Event' }, 'recording an event');
        await transport.request('POST', resourcePath('v1', resource, { namespace }), { body });
      } catch {
        // best effort: an event that cannot be recorded must not fail the reconcile
      }
    },
  };
}
