import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ValidationError } from '../../../src/core/errors.ts';
import { loadEndpointMap } from '../../../src/operator/runtime/endpoint-map.ts';

const doc = {
  endpoints: {
    'kc.team-a.svc:8080': 'http://127.0.0.1:41000',
    'kc.team-a.svc:9000': 'http://127.0.0.1:41001/',
  },
};

const cases: [string, string][] = [
  [
    'http://kc.team-a.svc:8080/realms/master/protocol/openid-connect/token',
    'http://127.0.0.1:41000/realms/master/protocol/openid-connect/token',
  ],
  ['http://kc.team-a.svc:9000/health/ready?x=1', 'http://127.0.0.1:41001/health/ready?x=1'],
  ['http://kc.team-a.svc.cluster.local:8080/admin', 'http://127.0.0.1:41000/admin'],
  ['http://KC.team-a.svc:8080/', 'http://127.0.0.1:41000/'],
  ['http://kc.team-b.svc:8080/admin', 'http://kc.team-b.svc:8080/admin'],
  ['http://kc.team-a.svc:8443/admin', 'http://kc.team-a.svc:8443/admin'],
  ['not a url', 'not a url'],
];

test('inline JSON maps service host and port to the local URL, keeping path and query', () => {
  const map = loadEndpointMap(JSON.stringify(doc));
  for (const [input, want] of cases) assert.is(map.resolve(input), want, input);
});

test('no map passes URLs through unchanged', () => {
  assert.is(loadEndpointMap(undefined).resolve('http://kc.team-a.svc:8080/x'), 'http://kc.team-a.svc:8080/x');
  assert.is(loadEndpointMap('').resolve('http://kc.team-a.svc:8080/x'), 'http://kc.team-a.svc:8080/x');
});

test('a map file is re-read when it changes, and a missing file maps nothing', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'endpoint-map-')), 'endpoints.json');
  const map = loadEndpointMap(file);
  assert.is(map.resolve('http://kc.team-a.svc:8080/x'), 'http://kc.team-a.svc:8080/x');
  writeFileSync(file, JSON.stringify(doc));
  assert.is(map.resolve('http://kc.team-a.svc:8080/x'), 'http://127.0.0.1:41000/x');
  writeFileSync(file, JSON.stringify({ endpoints: { 'kc.team-a.svc:8080': 'http://127.0.0.1:42000' } }));
  utimesSync(file, new Date(), new Date(Date.now() + 5000));
  assert.is(map.resolve('http://kc.team-a.svc:8080/x'), 'http://127.0.0.1:42000/x');
});

test('malformed maps are rejected with the bad entry named', () => {
  const bad: [string, RegExp][] = [
    ['{nope', /not JSON/],
    ['{"endpoints": []}', /"endpoints" object/],
    ['{"endpoints": {"kc.ns.svc": "http://127.0.0.1:1"}}', /"kc.ns.svc" is not <host>:<port>/],
    ['{"endpoints": {"kc.ns.svc:80": "127.0.0.1:1"}}', /must be a URL/],
  ];
  for (const [text, message] of bad) {
    try {
      loadEndpointMap(text);
      assert.unreachable(`accepted ${text}`);
    } catch (e) {
      assert.instance(e, ValidationError);
      assert.match((e as Error).message, message);
    }
  }
});

test.run();
