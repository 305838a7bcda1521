// The read passes of the tenants and scale benches: the sections read per realm follow the production example's
// declarations (so the master admin and the floor read what the operator manages), and Keycloak's idle CPU is
// taken out of a pass's cost before it is divided by realms and reads.
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { passCost, sectionPaths } from '../../scripts/bench/read-sections.ts';

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

test.run();
