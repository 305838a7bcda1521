// The KubeClient over @kubernetes/client-node: generic reads and server-side apply through KubernetesObjectApi,
// status through the custom-objects status subresource (apply patch), events through core/v1. HTTP errors become
// typed errors: 404 is "absent", 401/403 auth, 409 conflict, 5xx and network failures transient.
import {
  CoreV1Api,
  CustomObjectsApi,
  type KubeConfig,
  KubernetesObjectApi,
  PatchStrategy,
  setHeaderOptions,
} from '@kubernetes/client-node';
import { RealmforgeError } from '../../core/errors.ts';
import { fieldManager, type KubeObject } from '../compile/kube-object.ts';
import type { Clock } from './clock.ts';
import type { KubeClient, ObjectRef } from './kube-client.ts';

function codeOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'number' ? code : undefined;
}

function typed(what: string, error: unknown): Error {
  const code = codeOf(error);
  const body = (error as { body?: unknown }).body;
  const detail =
    typeof body === 'string' ? (JSON.parse(body || '{}') as { message?: string }).message : undefined;
  const message = `${what}: ${detail ?? (error as Error).message}`;
  if (code === 401 || code === 403) return new RealmforgeError('auth', message, { cause: error });
  if (code === 409) return new RealmforgeError('conflict', message, { cause: error });
  if (code === 404) return new RealmforgeError('not_found', message, { cause: error });
  if (code === 422 || code === 400) return new RealmforgeError('validation', message, { cause: error });
  return new RealmforgeError('transient', message, { cause: error });
}

function safeTyped(what: string, error: unknown): Error {
  try {
    return typed(what, error);
  } catch {
    return new RealmforgeError('transient', `${what}: ${(error as Error).message}`, { cause: error });
  }
}

const describe = (r: ObjectRef) => `${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}`;

/** A KubeClient talking to the API server named by `config`, acting as field manager `realmforge`. */
export function nodeKubeClient(config: KubeConfig, clock: Clock): KubeClient {
  const objects = KubernetesObjectApi.makeApiClient(config);
  const custom = config.makeApiClient(CustomObjectsApi);
  const core = config.makeApiClient(CoreV1Api);
  const header = (r: ObjectRef) => ({
    apiVersion: r.apiVersion,
    kind: r.kind,
    metadata: { name: r.name, namespace: r.namespace },
  });
  return {
    async get(ref) {
      try {
        return (await objects.read(header(ref))) as KubeObject;
      } catch (error) {
        if (codeOf(error) === 404) return undefined;
        throw safeTyped(`reading ${describe(ref)}`, error);
      }
    },
    async list(type, namespace, labelSelector) {
      try {
        const list = await objects.list(
          type.apiVersion,
          type.kind,
          namespace,
          undefined,
          undefined,
          undefined,
          undefined,
          labelSelector,
        );
        return list.items.map((o) => ({ ...o, apiVersion: type.apiVersion, kind: type.kind }) as KubeObject);
      } catch (error) {
        if (codeOf(error) === 404) return [];
        throw safeTyped(`listing ${type.kind} in ${namespace}`, error);
      }
    },
    async apply(object) {
      try {
        return (await objects.patch(
          object,
          undefined,
          undefined,
          fieldManager,
          true,
          PatchStrategy.ServerSideApply,
        )) as KubeObject;
      } catch (error) {
        throw safeTyped(`applying ${describe({ ...object, ...object.metadata })}`, error);
      }
    },
    async applyStatus(ref, status) {
      const [group, version] = ref.apiVersion.split('/');
      const plural = `${ref.kind.toLowerCase()}s`;
      const body = {
        apiVersion: ref.apiVersion,
        kind: ref.kind,
        metadata: { name: ref.name, namespace: ref.namespace },
        status,
      };
      try {
        await custom.patchNamespacedCustomObjectStatus(
          {
            group,
            version,
            plural,
            namespace: ref.namespace ?? 'default',
            name: ref.name,
            body,
            fieldManager,
            force: true,
          },
          setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
        );
      } catch (error) {
        throw safeTyped(`writing the status of ${describe(ref)}`, error);
      }
    },
    async delete(ref) {
      try {
        await objects.delete(header(ref), undefined, undefined, undefined, undefined, 'Background');
      } catch (error) {
        if (codeOf(error) === 404) return;
        throw safeTyped(`deleting ${describe(ref)}`, error);
      }
    },
    async event(about, event) {
      const namespace = about.metadata.namespace ?? 'default';
      const now = new Date(clock.now());
      try {
        await core.createNamespacedEvent({
          namespace,
          body: {
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
          },
        });
      } catch {
        // best effort: an event that cannot be recorded must not fail the reconcile
      }
    },
  };
}
