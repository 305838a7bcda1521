// The watch against an API server on 127.0.0.1 that scripts each watch request: resuming from the last
// resourceVersion (bookmarks included) when a watch ends or breaks, relisting after 410 Gone, and waking exactly
// the objects that changed while the watch was away.
import type { ServerResponse } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { manualClock, systemClock } from '../../../src/core/clock.ts';
import {
  ownerKey,
  ownKey,
  startWatch,
  statusOnlyChange,
  watchIdleMs,
} from '../../../src/operator/runtime/watch-source.ts';
import { fakeApiServer, json, type SeenRequest, status } from './fake-api-server.ts';

test('watched objects map to the key of the resource whose reconcile they should wake', () => {
  const server = { metadata: { name: 'kc', namespace: 'identity' } };
  const deployment = {
    metadata: {
      name: 'kc',
      namespace: 'identity',
      ownerReferences: [
        { apiVersion: 'x/v1', kind: 'Other', name: 'no', uid: '1', controller: false },
        { apiVersion: 'realmforge.dev/v1', kind: 'IdentityServer', name: 'kc', uid: '2', controller: true },
      ],
    },
  };
  assert.is(ownKey(server), 'identity/kc');
  assert.is(ownerKey('IdentityServer')(deployment), 'identity/kc');
  assert.is(ownerKey('IdentityServer')(server), undefined, 'an unowned object wakes nothing');
  assert.is(ownerKey('IdentityRealm')(deployment), undefined);
  assert.is(ownKey({ metadata: {} }), undefined);
});

const server = (name: string, rv: string) => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityServer',
  metadata: { name, namespace: 'id', resourceVersion: rv, managedFields: [{ manager: 'kubectl' }] },
  spec: { image: { tag: '26.0.0' } },
});

const line = (res: ServerResponse, type: string, object: unknown) =>
  res.write(`${JSON.stringify({ type, object })}\n`);

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A logger that keeps its lines. */
function memoryLogger() {
  const lines: { level: string; msg: string; fields?: Record<string, unknown> }[] = [];
  const at = (level: string) => (msg: string, fields?: Record<string, unknown>) => {
    lines.push({ level, msg, fields });
  };
  return { lines, logger: { info: at('info'), warn: at('warn'), error: at('error') } };
}

test('a change to status only (same generation and metadata) is told apart from one a controller must act on', () => {
  const before = {
    metadata: { name: 'a', generation: 3, resourceVersion: '7', annotations: { x: '1' }, finalizers: ['f'] },
    status: { phase: 'Provisioning' },
  };
  const next = (metadata: Record<string, unknown>) => ({
    ...before,
    metadata: { ...before.metadata, resourceVersion: '8', ...metadata },
    status: { phase: 'Ready' },
  });
  assert.ok(statusOnlyChange(before, next({})));
  assert.not.ok(statusOnlyChange(before, next({ generation: 4 })), 'a spec change');
  assert.not.ok(statusOnlyChange(before, next({ annotations: { x: '2' } })), 'the reconcile annotation');
  assert.not.ok(statusOnlyChange(before, next({ finalizers: [] })), 'a finalizer released');
  const bare = next({ finalizers: undefined });
  assert.ok(
    statusOnlyChange(bare, next({ finalizers: ['realmforge.dev/cleanup'] })),
    "the operator's own finalizer added: its reconcile is already running",
  );
  assert.not.ok(
    statusOnlyChange(bare, next({ finalizers: ['other.example/keep'] })),
    "someone else's finalizer",
  );
  assert.not.ok(
    statusOnlyChange(bare, next({ finalizers: ['realmforge.dev/cleanup', 'other.example/keep'] })),
    'ours with another at once',
  );
  assert.not.ok(statusOnlyChange(before, next({ deletionTimestamp: '2026-01-01T00:00:00Z' })), 'a deletion');
  assert.not.ok(statusOnlyChange(undefined, next({})), 'an object not seen before');
});

test('a watch resumes from the last resourceVersion (bookmarks too) and relists after 410 Gone', async () => {
  const watches: SeenRequest[] = [];
  let list = [server('kc-a', '5'), server('kc-b', '6')];
  let listVersion = '10';
  const open: ServerResponse[] = [];
  const api = await fakeApiServer((req, res) => {
    if (req.path !== '/apis/realmforge.dev/v1/identityservers') return false;
    if (req.query.get('watch') !== '1') {
      return json(res, 200, { metadata: { resourceVersion: listVersion }, items: list });
    }
    watches.push(req);
    res.writeHead(200, { 'content-type': 'application/json' });
    switch (watches.length) {
      case 1: // a change and a bookmark, then the server ends the watch (its timeout)
        line(res, 'MODIFIED', server('kc-b', '11'));
        line(res, 'BOOKMARK', { kind: 'IdentityServer', metadata: { resourceVersion: '12' } });
        res.end();
        break;
      case 2: // meanwhile etcd was compacted: kc-a was deleted and kc-c created while nobody watched
        list = [server('kc-b', '11'), server('kc-c', '13')];
        listVersion = '20';
        line(res, 'ERROR', status(410, 'too old resource version: 12 (15)'));
        res.end();
        break;
      default:
        open.push(res); // stays open until the watch stops
    }
    return true;
  });
  const woken: string[] = [];
  const { lines, logger } = memoryLogger();
  const source = startWatch(
    { apiVersion: 'realmforge.dev/v1', kind: 'IdentityServer' },
    ownKey,
    (key) => woken.push(key),
    {
      transport: api.transport,
      resources: api.resources,
      clock: systemClock,
      logger,
      backoff: { baseMs: 10, maxMs: 50, random: () => 0 },
      timeoutSeconds: 300,
    },
  );
  try {
    await until('the third watch', () => watches.length === 3);
    assert.equal(
      watches.map((w) => w.query.get('resourceVersion')),
      ['10', '12', '20'],
      'resumed from the bookmark, then from the relist',
    );
    assert.ok(watches.every((w) => w.query.get('allowWatchBookmarks') === 'true'));
    assert.ok(watches.every((w) => w.query.get('timeoutSeconds') === '300'));
    assert.equal(woken, ['id/kc-a', 'id/kc-b', 'id/kc-b', 'id/kc-c', 'id/kc-a']);
    assert.ok(source.synced());
    assert.equal(source.keys().sort(), ['id/kc-b', 'id/kc-c']);
    assert.ok(
      source.objects().every((o) => o.metadata?.managedFields === undefined && o.kind === 'IdentityServer'),
      'cached objects drop managedFields',
    );
    assert.ok(lines.some((l) => l.msg === 'watch expired (410 Gone); relisting'));
    assert.not.ok(
      lines.some((l) => l.level === 'warn'),
      'a server timeout and a 410 are not failures',
    );
  } finally {
    await source.stop();
    for (const res of open) res.end();
    await api.close();
  }
});

test('a broken connection or an API server error restarts after a backoff, from the last resourceVersion', async () => {
  const watches: SeenRequest[] = [];
  const open: ServerResponse[] = [];
  const api = await fakeApiServer((req, res) => {
    if (req.path !== '/apis/realmforge.dev/v1/identityservers') return false;
    if (req.query.get('watch') !== '1')
      return json(res, 200, { metadata: { resourceVersion: '10' }, items: [server('kc-a', '5')] });
    watches.push(req);
    if (watches.length === 1) {
      res.writeHead(200, { 'content-type': 'application/json' });
      line(res, 'ADDED', server('kc-b', '11'));
      setTimeout(() => res.socket?.destroy(), 20); // the connection drops mid-stream
    } else if (watches.length === 2) {
      json(res, 503, status(503, 'the API server is shutting down'));
    } else if (watches.length === 3) {
      json(res, 410, status(410, 'too old resource version'));
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      open.push(res);
    }
    return true;
  });
  const { lines, logger } = memoryLogger();
  const woken: string[] = [];
  const source = startWatch(
    { apiVersion: 'realmforge.dev/v1', kind: 'IdentityServer', labelSelector: 'a=b' },
    ownKey,
    (key) => woken.push(key),
    {
      transport: api.transport,
      resources: api.resources,
      clock: systemClock,
      logger,
      backoff: { baseMs: 10, maxMs: 50, random: () => 0 },
    },
  );
  try {
    await until('the fourth watch', () => watches.length === 4);
    assert.equal(
      watches.map((w) => w.query.get('resourceVersion')),
      ['10', '11', '11', '10'],
      'after a drop and a 503 the watch resumes at 11; after an HTTP 410 it relists (version 10 again)',
    );
    assert.ok(watches.every((w) => w.query.get('labelSelector') === 'a=b'));
    const warnings = lines.filter((l) => l.msg === 'watch ended; restarting');
    assert.is(warnings.length, 2);
    assert.match(
      String(warnings[1].fields?.error),
      /watching IdentityServer: the API server is shutting down/,
    );
    assert.equal(source.keys().sort(), ['id/kc-a'], 'the relist replaced the cache: kc-b is gone');
    assert.equal(woken, ['id/kc-a', 'id/kc-b', 'id/kc-b']);
  } finally {
    await source.stop();
    for (const res of open) res.end();
    await api.close();
  }
});

test('a watch silent for twice the bookmark interval (a half-open connection) is restarted from its last version', async () => {
  const watches: SeenRequest[] = [];
  const api = await fakeApiServer((req, res) => {
    if (req.query.get('watch') !== '1')
      return json(res, 200, { kind: 'List', items: [], metadata: { resourceVersion: '10' } });
    watches.push(req);
    res.writeHead(200, { 'content-type': 'application/json' });
    if (watches.length === 1) line(res, 'BOOKMARK', { metadata: { resourceVersion: '11' } });
    return true; // then silence: no event, no bookmark, no end
  });
  const clock = manualClock();
  const { lines, logger } = memoryLogger();
  const source = startWatch({ apiVersion: 'realmforge.dev/v1', kind: 'IdentityServer' }, ownKey, () => {}, {
    transport: api.transport,
    resources: api.resources,
    clock,
    logger,
    backoff: { baseMs: 10, maxMs: 50, random: () => 0 },
    timeoutSeconds: 300,
  });
  try {
    await until('the first watch', () => watches.length === 1);
    await new Promise((r) => setTimeout(r, 50)); // the bookmark arrives and re-arms the watchdog
    clock.advance(watchIdleMs - 1);
    await new Promise((r) => setTimeout(r, 50));
    assert.is(watches.length, 1, 'not restarted before the idle limit');
    clock.advance(1);
    await until('the second watch', () => watches.length === 2);
    assert.is(watches[1].query.get('resourceVersion'), '11');
    assert.is(watchIdleMs, 120_000);
    assert.ok(lines.some((l) => l.msg === 'no event or bookmark on the watch; restarting it'));
  } finally {
    await source.stop();
    await api.close();
  }
});

test('stop() ends a watch that was about to start: it is never left open until its server timeout', async () => {
  let watches = 0;
  const api = await fakeApiServer((req, res) => {
    if (req.query.get('watch') !== '1')
      return json(res, 200, { kind: 'List', items: [], metadata: { resourceVersion: '10' } });
    watches++;
    res.writeHead(200, { 'content-type': 'application/json' });
    return true; // stays open
  });
  const { logger } = memoryLogger();
  const source = startWatch({ apiVersion: 'realmforge.dev/v1', kind: 'IdentityServer' }, ownKey, () => {}, {
    transport: api.transport,
    resources: api.resources,
    clock: manualClock(),
    logger,
    backoff: { baseMs: 10, maxMs: 50, random: () => 0 },
    timeoutSeconds: 300,
  });
  try {
    await until('the first watch', () => watches === 1);
    const stopped = await Promise.race([
      source.stop().then(() => 'stopped'),
      new Promise((r) => setTimeout(() => r('hung'), 2000)),
    ]);
    assert.is(stopped, 'stopped');
  } finally {
    await api.close();
  }
});

test.run();
