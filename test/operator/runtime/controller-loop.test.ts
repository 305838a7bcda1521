// The loop around every reconciler: a reconcile that changed nothing logs at debug (a steady state of thousands
// of resources writes no info lines), one that changed a phase or wrote something logs at info; a requeue is
// spread by +-25% so resources created together drift apart; the process series are exported.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { manualClock } from '../../../src/core/clock.ts';
import { controllerLoop, jittered } from '../../../src/operator/runtime/controller-loop.ts';
import type { LogFields, Logger } from '../../../src/operator/runtime/logger.ts';
import { createMetrics } from '../../../src/operator/runtime/metrics.ts';
import { reconcileKind } from '../../../src/operator/runtime/reconcile-scope.ts';

function recordingLogger() {
  const lines: string[] = [];
  const at =
    (level: string) =>
    (msg: string, f: LogFields = {}) =>
      lines.push(`${level} ${msg} ${f.name} ${f.phase ?? ''}`.trim());
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { lines, logger };
}

test('a no-op reconcile logs at debug; a phase change or a write logs at info', async () => {
  const { lines, logger } = recordingLogger();
  const outcomes = [
    { phase: 'Ready', writes: ['create realm'] },
    { phase: 'Ready', writes: [] },
    { phase: 'Ready', writes: [] },
    { phase: 'Ready', writes: ['update realm'] },
    { phase: 'Provisioning', writes: [] },
    { phase: 'Ready', applied: [], deleted: [], statusWritten: true },
    { phase: 'Ready', applied: [], deleted: [], statusWritten: false },
  ];
  const clock = manualClock();
  const queue = controllerLoop('IdentityRealm', async () => ({ outcome: outcomes.shift() }), {
    clock,
    logger,
    metrics: createMetrics(),
    backoff: { baseMs: 10, maxMs: 10, random: () => 0 },
    concurrency: 1,
  });
  while (outcomes.length > 0) {
    queue.add('team/r');
    await queue.idle();
  }
  assert.equal(lines, [
    'info reconciled r Ready',
    'debug reconciled r Ready',
    'debug reconciled r Ready',
    'info reconciled r Ready',
    'info reconciled r Provisioning',
    'info reconciled r Ready',
    'debug reconciled r Ready',
  ]);
});

test('a reconcile runs in the scope of its kind (Keycloak calls are counted by it), through its awaits', async () => {
  const seen: string[] = [];
  const queue = controllerLoop(
    'IdentityClient',
    async () => {
      seen.push(reconcileKind());
      await new Promise((r) => setImmediate(r));
      seen.push(reconcileKind());
      return {};
    },
    {
      clock: manualClock(),
      logger: recordingLogger().logger,
      metrics: createMetrics(),
      backoff: { baseMs: 10, maxMs: 10, random: () => 0 },
      concurrency: 1,
    },
  );
  queue.add('team/c');
  await queue.idle();
  assert.equal(seen, ['IdentityClient', 'IdentityClient']);
  assert.is(reconcileKind(), 'none', 'outside a reconcile');
});

test('requeues are spread over the last fifth of the delay asked for, never later', async () => {
  assert.is(jittered(60_000, undefined), 60_000, 'no random: exactly as asked');
  assert.is(
    jittered(60_000, () => 0),
    48_000,
  );
  assert.is(
    jittered(60_000, () => 0.5),
    54_000,
  );
  assert.is(
    jittered(60_000, () => 0.999),
    59_988,
  );
  const clock = manualClock();
  const runs: string[] = [];
  const randoms = [0, 0.99];
  const queue = controllerLoop(
    'IdentityClient',
    async (key) => {
      runs.push(key);
      return { requeueAfterMs: 60_000, outcome: { phase: 'Ready' } };
    },
    {
      clock,
      logger: recordingLogger().logger,
      metrics: createMetrics(),
      backoff: { baseMs: 10, maxMs: 10, random: () => 0 },
      concurrency: 2,
      random: () => randoms.shift() ?? 0.5,
    },
  );
  queue.add('team/a');
  queue.add('team/b');
  await queue.idle();
  runs.length = 0;
  clock.advance(48_000);
  await queue.idle();
  assert.equal(runs, ['team/a'], 'a comes back at 0.8 of the interval');
  clock.advance(11_940);
  await queue.idle();
  assert.equal(runs, ['team/a', 'team/b'], 'b just before the whole of it');
  await queue.shutdown();
});

test('one not-Ready series per resource, with its phase and reason; gone once Ready or deleted', async () => {
  const metrics = createMetrics();
  const outcomes: ({ phase: string; reason?: string } | undefined)[] = [
    { phase: 'Pending', reason: 'NamespaceNotAuthorized' },
    { phase: 'Provisioning', reason: 'KeycloakUnavailable' },
    { phase: 'Ready', reason: 'Ready' },
    { phase: 'Failed', reason: 'InvalidSpec' },
    undefined,
  ];
  const queue = controllerLoop('IdentityRealm', async () => ({ outcome: outcomes.shift() }), {
    clock: manualClock(),
    logger: recordingLogger().logger,
    metrics,
    backoff: { baseMs: 10, maxMs: 10, random: () => 0 },
    concurrency: 1,
  });
  const seen: string[][] = [];
  while (outcomes.length > 0) {
    queue.add('team/r');
    await queue.idle();
    const { values } = await metrics.resourceNotReady.get();
    seen.push(
      values.map(
        (v) =>
          `${v.labels.kind} ${v.labels.namespace}/${v.labels.name} ${v.labels.phase} ${v.labels.reason} ${v.value}`,
      ),
    );
  }
  assert.equal(seen, [
    ['IdentityRealm team/r Pending NamespaceNotAuthorized 1'],
    ['IdentityRealm team/r Provisioning KeycloakUnavailable 1'],
    [],
    ['IdentityRealm team/r Failed InvalidSpec 1'],
    [],
  ]);
  await queue.shutdown();
});

test('the reconcile and queue series of a kind exist at 0 before its first reconcile', async () => {
  const metrics = createMetrics();
  const queue = controllerLoop('IdentityClient', async () => ({}), {
    clock: manualClock(),
    logger: recordingLogger().logger,
    metrics,
    backoff: { baseMs: 10, maxMs: 10, random: () => 0 },
    concurrency: 1,
  });
  const text = await metrics.registry.metrics();
  for (const line of [
    'realmforge_reconcile_total{kind="IdentityClient",result="success"} 0',
    'realmforge_reconcile_total{kind="IdentityClient",result="error"} 0',
    'realmforge_reconcile_errors_total{kind="IdentityClient"} 0',
    'realmforge_workqueue_depth{kind="IdentityClient"} 0',
  ])
    assert.ok(text.split('\n').includes(line), line);
  await queue.shutdown();
});

test('the process series are exported with the operator series', async () => {
  const text = await createMetrics({ process: true }).registry.metrics();
  for (const name of [
    'process_resident_memory_bytes',
    'nodejs_heap_size_used_bytes',
    'nodejs_eventloop_lag_p99_seconds',
  ])
    assert.ok(text.includes(`# TYPE ${name} gauge`), name);
  assert.not.ok((await createMetrics().registry.metrics()).includes('process_resident_memory_bytes'));
});

test.run();
