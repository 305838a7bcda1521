// The Lease over REST: MicroTime with six fractional digits, create and replace carrying the resourceVersion, and
// a stale version (409) reported as a conflict, which the elector reads as losing the race.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { kubeLeaseStore, microTime } from '../../../src/operator/runtime/lease-store.ts';
import { fakeApiServer, json, status } from './fake-api-server.ts';

test('MicroTime is RFC 3339 in UTC with exactly six fractional digits', () => {
  assert.is(microTime(Date.UTC(2026, 0, 2, 3, 4, 5, 67)), '2026-01-02T03:04:05.067000Z');
  assert.is(Date.parse(microTime(1_767_225_600_123)), 1_767_225_600_123);
});

test('the lease is read, created and replaced at its path; a stale version is a conflict', async () => {
  let stored: any;
  const path = '/apis/coordination.k8s.io/v1/namespaces/realmforge-system/leases/realmforge-operator';
  const api = await fakeApiServer((req, res) => {
    if (req.method === 'GET' && req.path === path)
      return stored ? json(res, 200, stored) : json(res, 404, status(404, 'not found'));
    if (req.method === 'POST' && req.path === path.replace(/\/realmforge-operator$/, '')) {
      stored = { ...req.body, metadata: { ...req.body.metadata, resourceVersion: '1' } };
      return json(res, 201, stored);
    }
    if (req.method === 'PUT' && req.path === path) {
      if (req.body.metadata.resourceVersion !== stored.metadata.resourceVersion)
        return json(res, 409, status(409, 'the object has been modified'));
      stored = { ...req.body, metadata: { ...req.body.metadata, resourceVersion: '2' } };
      return json(res, 200, stored);
    }
  });
  try {
    const store = kubeLeaseStore(api.transport, api.resources, 'realmforge-system', 'realmforge-operator');
    assert.is(await store.read(), undefined);
    const t = Date.UTC(2026, 0, 1);
    const record = { holder: 'a', durationSeconds: 15, acquireTime: t, renewTime: t + 1, transitions: 0 };
    const created = await store.create(record);
    assert.equal(created, { ...record, version: '1' });
    assert.is(stored.spec.renewTime, '2026-01-01T00:00:00.001000Z');
    assert.is(api.calls()[1].query.get('fieldManager'), 'realmforge');
    const renewed = await store.update({ ...created, renewTime: t + 2000 });
    assert.equal(renewed, { ...record, renewTime: t + 2000, version: '2' });
    assert.equal(await store.read(), renewed);
    const error = await store.update({ ...created, holder: 'b' }).catch((e) => e);
    assert.is(error.kind, 'conflict');
    assert.is(
      error.message,
      'renewing Lease realmforge-system/realmforge-operator: the object has been modified',
    );
  } finally {
    await api.close();
  }
});

test.run();
