// The read passes of the tenants and scale benches: the sections read per realm follow the production example's
// declarations (so the master admin and the floor read what the operator manages), and Keycloak's idle CPU is
// taken out of a pass's cost before it is divided by realms and reads.
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { passCost, sampleOf, sectionPaths, sumCosts } from '../../scripts/bench/read-sections.ts';

test('a minimal realm is read once, and each of its clients once', () => {
  assert.equal(sectionPaths('t-1', undefined, []), ['/t-1']);
  assert.equal(sectionPaths('t 1', undefined, ['app-0']), ['/t%201', '/t%201/clients?clientId=app-0']);
});

test("the production example's sections: each composite role, flow and locale it declares", () => {
  const spec = parse(readFileSync('examples/identityrealm-production.yaml', 'utf8')).spec;
  const paths = sectionPaths('r', spec, ['app-0']);
  assert.ok(paths.includes('/r/roles/payroll-admin/composites'));
  assert.not.ok(
    paths.some((p) => p.startsWith('/r/roles/employee')),
    'a role without composites',
  );
  for (const flow of spec.authenticationFlows)
    assert.ok(paths.includes(`/r/authentication/flows/${flow.alias}/executions`), flow.alias);
  assert.ok(paths.includes('/r/localization/en') && paths.includes('/r/localization/de'));
  assert.ok(paths.includes('/r/users/profile') && paths.includes('/r/groups?briefRepresentation=false'));
  assert.equal(paths.at(-1), '/r/clients?clientId=app-0');
  assert.equal(new Set(paths).size, paths.length);
});

test("Keycloak's idle rate over the window is subtracted before dividing by passes and reads", () => {
  const cost = passCost({ cpuS: 12, seconds: 20, passes: 10, reads: 100, idlePerS: 0.1 });
  assert.equal([cost.perPass.toFixed(3), cost.perRead.toFixed(3)], ['1.000', '0.100']);
  // Less CPU than idle would predict is within the noise: no cost at all, not a zero one a ratio would call met.
  assert.ok(Number.isNaN(passCost({ cpuS: 1, seconds: 20, passes: 10, reads: 100, idlePerS: 0.1 }).perPass));
});

test('two windows of one side count as one: each idle rate applies to its own seconds', () => {
  const a = { cpuS: 3, seconds: 10, passes: 100, reads: 100, idlePerS: 0.1 };
  const b = { cpuS: 1.5, seconds: 5, passes: 100, reads: 200, idlePerS: 0.1 };
  assert.equal(passCost(sumCosts(a, b)), { perPass: (4.5 - 1.5) / 200, perRead: (4.5 - 1.5) / 300 });
});

test("the read passes sample the first 100 realms, which got the floor's identity while the server was small", () => {
  const realms = Array.from({ length: 1000 }, (_, i) => i);
  assert.equal(sampleOf(realms), realms.slice(0, 100));
  assert.equal(sampleOf(realms.slice(0, 100)), sampleOf(realms), 'the same realms at 100 and at 1,000');
  assert.equal(sampleOf(realms.slice(0, 40)), realms.slice(0, 40));
});

test.run();
