// The bench's steady-state breakdown: counts read from /metrics, the window's difference, and per-kind reads per
// resync of that kind.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { breakdownLines, callCounts, callsBetween, callTotal } from '../../scripts/bench/call-breakdown.ts';

const metrics = (clients: number, serverinfo: number) => `
# HELP realmforge_keycloak_api_path_requests_total ...
realmforge_keycloak_api_path_requests_total{kind="IdentityClient",method="GET",path="/admin/realms/{realm}/clients?clientId&max"} ${clients}
realmforge_keycloak_api_path_requests_total{kind="IdentityClient",method="GET",path="/admin/serverinfo"} ${serverinfo}
realmforge_keycloak_api_path_requests_total{kind="IdentityServer",method="POST",path="/realms/{realm}/protocol/openid-connect/token"} 3
realmforge_keycloak_api_requests_total{namespace="a",method="GET",status="200"} 99
`;

test('the window counts only what moved, per kind and per path, with reads per resync of that kind', () => {
  const delta = callsBetween(callCounts(metrics(10, 10)), callCounts(metrics(30, 30)));
  assert.equal(
    [...delta],
    [
      ['IdentityClient GET /admin/realms/{realm}/clients?clientId&max', 20],
      ['IdentityClient GET /admin/serverinfo', 20],
    ],
  );
  const lines = breakdownLines(delta, { IdentityClient: 20 });
  assert.match(
    lines[0] ?? '',
    /IdentityClient\s+40 reads = 2.00 per IdentityClient resync, 0 other calls \(20 resyncs\)/,
  );
  assert.match(
    lines[1] ?? '',
    /20 {2}IdentityClient GET \/admin\/realms\/\{realm\}\/clients\?clientId&max = 1.00 per/,
  );
  assert.match(
    lines[2] ?? '',
    /20 {2}IdentityClient GET \/admin\/serverinfo = 1.00 per IdentityClient resync/,
  );
});

test('a token request is neither a read nor a write', () => {
  const counts = callCounts(metrics(1, 1));
  assert.is(
    callTotal(counts, (method) => method === 'GET'),
    2,
  );
  assert.is(
    callTotal(counts, (method, path) => method !== 'GET' && !path.endsWith('/token')),
    0,
  );
  assert.is(
    callTotal(counts, (method) => method === 'POST'),
    3,
  );
});

test('a total of one kind: the kind is the third thing the predicate sees', () => {
  const counts = callCounts(metrics(7, 2));
  assert.is(
    callTotal(counts, (_m, _p, kind) => kind === 'IdentityClient'),
    9,
  );
  assert.is(
    callTotal(counts, (m, _p, kind) => kind === 'IdentityServer' && m === 'POST'),
    3,
  );
});

test.run();
