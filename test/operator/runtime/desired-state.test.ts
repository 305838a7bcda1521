import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KubeObject } from '../../../src/operator/compile/kube-object.ts';
import {
  appliedHashAnnotation,
  applyReason,
  isSubset,
  objectHash,
  withAppliedHash,
} from '../../../src/operator/runtime/desired-state.ts';

const service: KubeObject = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'kc', namespace: 'identity', labels: { app: 'kc' } },
  spec: { ports: [{ name: 'http', port: 8080, targetPort: 8080 }], selector: { app: 'kc' } },
};

/** What the API server returns for `o`: defaults added, metadata filled in, a status. */
function asLive(o: KubeObject): KubeObject {
  const spec = o.spec as { ports: Record<string, unknown>[] };
  return {
    ...o,
    metadata: { ...o.metadata, uid: 'x', resourceVersion: '12', managedFields: [] },
    spec: {
      ...spec,
      ports: spec.ports.map((p) => ({ ...p, protocol: 'TCP' })),
      type: 'ClusterIP',
      clusterIP: '10.0.0.7',
    },
    status: { loadBalancer: {} },
  };
}

test('subset comparison: defaults in live are ignored; missing or different fields are not', () => {
  const table: [unknown, unknown, boolean][] = [
    [{ a: 1 }, { a: 1, b: 2 }, true],
    [{ a: 1 }, { a: 2 }, false],
    [{ a: { b: [1, 2] } }, { a: { b: [1, 2], c: 3 } }, true],
    [{ a: [1, 2] }, { a: [1, 2, 3] }, false],
    [{ a: [{ x: 1 }] }, { a: [{ x: 1, y: 2 }] }, true],
    [{ cpu: 1 }, { cpu: '1' }, true],
    [{ a: undefined }, {}, true],
    [{ a: {} }, { a: null }, false],
  ];
  for (const [want, have, expected] of table)
    assert.is(isSubset(want, have), expected, JSON.stringify([want, have]));
});

test('the hash is stable under key order and ignores its own annotation', () => {
  const reordered: KubeObject = {
    spec: service.spec,
    metadata: { labels: { app: 'kc' }, namespace: 'identity', name: 'kc' },
    kind: 'Service',
    apiVersion: 'v1',
  };
  assert.is(objectHash(reordered), objectHash(service));
  assert.is(objectHash(withAppliedHash(service)), objectHash(service));
  assert.is.not(objectHash({ ...service, spec: { selector: { app: 'kc' } } }), objectHash(service));
});

test('apply reasons: missing, unchanged, changed (incl. a removed field), drifted', () => {
  const desired = withAppliedHash(service);
  const live = asLive(desired);
  assert.is(applyReason(desired, undefined), 'missing');
  assert.is(applyReason(desired, live), undefined);
  const removed = withAppliedHash({ ...service, metadata: { ...service.metadata, labels: {} } });
  assert.is(
    applyReason(removed, live),
    'changed',
    'a removed label changes the hash although live is a superset',
  );
  const edited = { ...live, spec: { ...(live.spec as object), selector: { app: 'other' } } };
  assert.is(applyReason(desired, edited), 'drifted at .spec.selector.app');
  const relabelled = { ...live, metadata: { ...live.metadata, labels: { app: 'x' } } };
  assert.is(applyReason(desired, relabelled), 'drifted at .metadata.labels.app');
  const unannotated = { ...live, metadata: { ...live.metadata, annotations: {} } };
  assert.is(applyReason(desired, unannotated), 'changed');
  assert.ok(desired.metadata.annotations?.[appliedHashAnnotation]);
});

test.run();
