// The LeaseStore over the API server: one coordination.k8s.io/v1 Lease, read, created and replaced with its
// resourceVersion (a stale version answers 409, which the elector treats as losing the race).
import { CoordinationV1Api, type KubeConfig, type V1Lease, V1MicroTime } from '@kubernetes/client-node';
import { RealmforgeError } from '../../core/errors.ts';
import { fieldManager } from '../compile/kube-object.ts';
import type { LeaseRecord, LeaseStore } from './leader-election.ts';

const code = (error: unknown) => (error as { code?: number }).code;
const time = (value: unknown) => (value ? new Date(value as string | Date).getTime() : 0);

function fromLease(lease: V1Lease): LeaseRecord {
  const spec = lease.spec ?? {};
  return {
    holder: spec.holderIdentity ?? '',
    durationSeconds: spec.leaseDurationSeconds ?? 15,
    acquireTime: time(spec.acquireTime),
    renewTime: time(spec.renewTime),
    transitions: spec.leaseTransitions ?? 0,
    version: lease.metadata?.resourceVersion,
  };
}

/** The Lease `namespace/name`, accessed with the operator's credentials. */
export function kubeLeaseStore(config: KubeConfig, namespace: string, name: string): LeaseStore {
  const api = config.makeApiClient(CoordinationV1Api);
  const body = (r: LeaseRecord): V1Lease => ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace, resourceVersion: r.version },
    spec: {
      holderIdentity: r.holder,
      leaseDurationSeconds: r.durationSeconds,
      acquireTime: new V1MicroTime(r.acquireTime),
      renewTime: new V1MicroTime(r.renewTime),
      leaseTransitions: r.transitions,
    },
  });
  const typed = (what: string, error: unknown) =>
    new RealmforgeError(
      code(error) === 409 ? 'conflict' : code(error) === 403 ? 'auth' : 'transient',
      `${what} Lease ${namespace}/${name}: ${(error as Error).message}`,
      { cause: error },
    );
  return {
    async read() {
      try {
        return fromLease(await api.readNamespacedLease({ name, namespace }));
      } catch (error) {
        if (code(error) === 404) return undefined;
        throw typed('reading', error);
      }
    },
    async create(record) {
      try {
        return fromLease(await api.createNamespacedLease({ namespace, body: body(record), fieldManager }));
      } catch (error) {
        throw typed('creating', error);
      }
    },
    async update(record) {
      try {
        return fromLease(
          await api.replaceNamespacedLease({ name, namespace, body: body(record), fieldManager }),
        );
      } catch (error) {
        throw typed('renewing', error);
      }
    },
  };
}
