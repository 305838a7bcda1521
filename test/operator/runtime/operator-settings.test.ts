import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { UsageError } from '../../../src/core/errors.ts';
import { parseDuration, runSettings } from '../../../src/operator/runtime/operator-settings.ts';

test('defaults: 50/100 global, 5/10 per namespace, drift 60 s, metrics 8081', () => {
  const s = runSettings({}, {});
  assert.equal(s.globalLimit, { tps: 50, burst: 100 });
  assert.equal(s.namespaceLimit, { tps: 5, burst: 10 });
  assert.is(s.driftIntervalMs, 60_000);
  assert.is(s.metricsPort, 8081);
  assert.is(s.leaderElect, false);
});

test('the Ready grace: 10 minutes by default, REALMFORGE_READY_GRACE, and --ready-grace over both', () => {
  assert.is(runSettings({}, {}).readyGraceMs, 600_000);
  assert.is(runSettings({}, { REALMFORGE_READY_GRACE: '2m' }).readyGraceMs, 120_000);
  assert.is(runSettings({ readyGrace: '30s' }, { REALMFORGE_READY_GRACE: '2m' }).readyGraceMs, 30_000);
});

test('the full-resync period: 40 drift intervals by default, REALMFORGE_FULL_RESYNC_PERIOD, the flag over both', () => {
  assert.is(runSettings({}, {}).fullResyncPeriodMs, 40 * 60_000);
  assert.is(runSettings({ driftInterval: '10m' }, {}).fullResyncPeriodMs, 400 * 60_000);
  const env = { REALMFORGE_FULL_RESYNC_PERIOD: '2h' };
  assert.is(runSettings({}, env).fullResyncPeriodMs, 7_200_000);
  assert.is(runSettings({ fullResyncPeriod: '30m' }, env).fullResyncPeriodMs, 1_800_000);
  assert.throws(
    () => runSettings({ fullResyncPeriod: 'soon' }, {}),
    /--full-resync-period must be a duration/,
  );
});

test('raised limits (100 and 10) come from the spec variables', () => {
  const s = runSettings(
    {},
    { KEYCLOAK_API_GLOBAL_RATE_LIMIT_TPS: '100', KEYCLOAK_API_NAMESPACE_RATE_LIMIT_TPS: '10' },
  );
  assert.equal(s.globalLimit, { tps: 100, burst: 100 });
  assert.equal(s.namespaceLimit, { tps: 10, burst: 10 });
});

test('an invalid value stops the operator with a message naming the variable or flag', () => {
  const cases: [Parameters<typeof runSettings>[0], NodeJS.ProcessEnv, RegExp][] = [
    [
      {},
      { KEYCLOAK_API_GLOBAL_RATE_LIMIT_TPS: '-1' },
      /KEYCLOAK_API_GLOBAL_RATE_LIMIT_TPS must be a positive number, got "-1"/,
    ],
    [
      {},
      { KEYCLOAK_API_NAMESPACE_RATE_LIMIT_TPS: 'fast' },
      /KEYCLOAK_API_NAMESPACE_RATE_LIMIT_TPS must be a positive number/,
    ],
    [
      {},
      { KEYCLOAK_API_GLOBAL_RATE_LIMIT_BURST: '2.5' },
      /KEYCLOAK_API_GLOBAL_RATE_LIMIT_BURST must be a positive integer/,
    ],
    [{ driftInterval: 'soon' }, {}, /--drift-interval must be a duration/],
    [{ readyGrace: '0s' }, {}, /--ready-grace must be a duration of at least 1s/],
    [{}, { REALMFORGE_READY_GRACE: 'a while' }, /REALMFORGE_READY_GRACE must be a duration/],
    [{ logLevel: 'loud' }, {}, /--log-level must be one of/],
    [{ metricsPort: 70000 }, {}, /--metrics-port must be a port number/],
  ];
  for (const [flags, env, message] of cases) {
    try {
      runSettings(flags, env);
      assert.unreachable(`accepted ${JSON.stringify({ flags, env })}`);
    } catch (e) {
      assert.instance(e, UsageError);
      assert.match((e as Error).message, message);
    }
  }
});

test('durations: 90s, 5m, 1h and bare seconds', () => {
  assert.is(parseDuration('x', '90s'), 90_000);
  assert.is(parseDuration('x', '5m'), 300_000);
  assert.is(parseDuration('x', '1h'), 3_600_000);
  assert.is(parseDuration('x', '30'), 30_000);
});

test.run();
