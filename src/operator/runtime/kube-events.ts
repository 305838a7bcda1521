// Events recorded as client-go's EventCorrelator does: a repetition of the same event (same object, type, reason
// and message) updates the count and lastTimestamp of the Event already recorded instead of creating another
// object, so a flapping Keycloak leaves one Event per reason and resource, not two new objects a minute.

import type { Clock } from '../../core/clock.ts';
import type { KubeObject } from '../compile/kube-object.ts';
import type { KubeEvent } from './kube-client.ts';
import type { KubeTransport } from './kube-transport.ts';

/** Events remembered for aggregation; the oldest is forgotten past this (client-go keeps 4096). */
export const eventCacheSize = 4096;

type Recorded = { name: string; count: number };

/** Records events in `namespace`'s Event collection at `collection(namespace)`; best effort, never throws. */
export function eventRecorder(
  transport: KubeTransport,
  clock: Clock,
  collection: (namespace: string) => Promise<string>,
) {
  const recorded = new Map<string, Recorded>();
  const remember = (key: string, value: Recorded) => {
    recorded.delete(key);
    recorded.set(key, value);
    if (recorded.size > eventCacheSize) recorded.delete(recorded.keys().next().value as string);
  };
  return async (about: KubeObject, event: KubeEvent, fence?: () => void): Promise<void> => {
    const namespace = about.metadata.namespace ?? 'default';
    const message = event.message.slice(0, 1024);
    const key = JSON.stringify([
      about.metadata.uid,
      about.kind,
      namespace,
      about.metadata.name,
      event.type,
      event.reason,
      message,
    ]);
    const now = new Date(clock.now()).toISOString();
    try {
      const path = await collection(namespace);
      const previous = recorded.get(key);
      if (previous) {
        const count = previous.count + 1;
        const res = await transport.request('PATCH', `${path}/${previous.name}`, {
          body: { count, lastTimestamp: now },
          contentType: 'application/merge-patch+json',
          fence,
        });
        if (res.status === 200) return remember(key, { name: previous.name, count });
        // Gone (events expire after an hour): record it anew.
      }
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
        message,
        source: { component: 'realmforge' },
        firstTimestamp: now,
        lastTimestamp: now,
        count: 1,
      };
      const res = await transport.request('POST', path, { body, fence });
      const name = (res.body as { metadata?: { name?: string } } | undefined)?.metadata?.name;
      if (res.status === 201 && name) remember(key, { name, count: 1 });
    } catch {
      // best effort: an event that cannot be recorded must not fail the reconcile
    }
  };
}
