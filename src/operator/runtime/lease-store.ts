// The LeaseStore over the API server: one coordination.k8s.io/v1 Lease, read, created and replaced with its
// resourceVersion (a stale version answers 409, which the elector treats as losing the race). Times are written
// as MicroTime, RFC 3339 with exactly six fractional digits, the only form the API server accepts for them.
import { RealmforgeError } from '../../core/errors.ts';
import { fieldManager } from '../compile/kube-object.ts';
import { type KubeResources, resourcePath } from './kube-resources.ts';
import { type KubeTransport, kubeError } from './kube-transport.ts';
import type { LeaseRecord, LeaseStore } from './leader-election.ts';

type Lease = {
  metadata?: { resourceVersion?: string };
  spec?: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
};

/** A time in ms since the epoch as a Kubernetes MicroTime: `2026-01-01T00:00:00.123000Z`. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

const time = (value: string | undefined) => (value ? Date.parse(value) || 0 : 0);

function fromLease(lease: Lease): LeaseRecord {
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

const leaseType = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' };

/** The Lease `namespace/name`, accessed with the operator's credentials. */
export function kubeLeaseStore(
  transport: KubeTransport,
  resources: KubeResources,
  namespace: string,
  name: string,
): LeaseStore {
  const body = (r: LeaseRecord) => ({
    ...leaseType,
    metadata: { name, namespace, resourceVersion: r.version },
    spec: {
      holderIdentity: r.holder,
      leaseDurationSeconds: r.durationSeconds,
      acquireTime: microTime(r.acquireTime),
      renewTime: microTime(r.renewTime),
      leaseTransitions: r.transitions,
    },
  });
  const path = async (withName: boolean) => {
    const resource = await resources.resolve(leaseType);
    if (!resource)
      throw new RealmforgeError('not_found', 'the API server does not serve coordination.k8s.io/v1 Lease');
    return resourcePath(leaseType.apiVersion, resource, { namespace, name: withName ? name : undefined });
  };
  const send = async (what: string, method: string, withName: boolean, record?: LeaseRecord) => {
    const res = await transport.request(method, await path(withName), {
      query: record ? { fieldManager } : undefined,
      body: record ? body(record) : undefined,
    });
    return { res, fail: () => kubeError(`${what} Lease ${namespace}/${name}`, res.status, res.body) };
  };
  return {
    async read() {
      const { res, fail } = await send('reading', 'GET', true);
      if (res.status === 404) return undefined;
      if (res.status !== 200) throw fail();
      return fromLease(res.body as Lease);
    },
    async create(record) {
      const { res, fail } = await send('creating', 'POST', false, record);
      if (res.status !== 201 && res.status !== 200) throw fail();
      return fromLease(res.body as Lease);
    },
    async update(record) {
      const { res, fail } = await send('renewing', 'PUT', true, record);
      if (res.status !== 200) throw fail();
      return fromLease(res.body as Lease);
    },
  };
}
