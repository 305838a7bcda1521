// The e2e hook of `npm run test:e2e`: the environments for the whole run, torn down at the end even on failure or
// interrupt. Suites are spread over `TEST_E2E_SHARDS` environments (default 3), each a whole environment of its own
// (etcd, API server, PostgreSQL, Keycloak, process kubelet), so a suite that restarts the API server or stops
// Keycloak disturbs no other; within one environment suites run one at a time. An environment already up
// (`testenv up`) is reused and kept, as the only shard.
import { join } from 'node:path';
import { describeError } from '../../src/core/errors.ts';
import { down, isUp, up } from './env.ts';
import { cacheDir } from './paths.ts';
import { envVars, readState } from './state.ts';

const log = (line: string) => process.stderr.write(`testenv: ${line}\n`);

/** The environments of a run: one promise of variables per shard, settled when that environment is up (they come up
 * one after the other, each start being CPU-bound, and a shard's suites start as soon as its own is up), and the
 * teardown of them all. */
export type E2eShards = { shards: Promise<Record<string, string>>[]; teardown: () => Promise<void> };

/** Runs `fn` with REALMFORGE_TESTENV_STATE naming `file` (up/down read their state file from it). */
async function withState<T>(file: string, fn: () => Promise<T>): Promise<T> {
  const before = process.env.REALMFORGE_TESTENV_STATE;
  process.env.REALMFORGE_TESTENV_STATE = file;
  try {
    return await fn();
  } finally {
    if (before === undefined) delete process.env.REALMFORGE_TESTENV_STATE;
    else process.env.REALMFORGE_TESTENV_STATE = before;
  }
}

/** How many environments to run suites in: TEST_E2E_SHARDS (1 to 4), default 3 (the suites mostly wait on
 * Keycloak and drift intervals: two shards kept about one core of two busy in CI). */
export function shardCount(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.TEST_E2E_SHARDS ?? 3);
  if (!Number.isInteger(n) || n < 1 || n > 4)
    throw new Error(`TEST_E2E_SHARDS must be a whole number from 1 to 4, not "${env.TEST_E2E_SHARDS}"`);
  return n;
}

/** Brings the environments up, one after the other, and returns their variables as each is up. */
export function prepareE2e(count = shardCount()): E2eShards {
  const existing = readState();
  if (isUp(existing)) {
    log('reusing the environment that is already up (it stays up; one shard)');
    const vars = { ...envVars(existing), REALMFORGE_TESTENV_REQUIRED: '1' };
    return { shards: [Promise.resolve(vars)], teardown: async () => {} };
  }
  const files = Array.from({ length: count }, (_, i) =>
    join(cacheDir(), 'testenv', `e2e-${process.pid}-${i + 1}.json`),
  );
  // Every Keycloak of the run (the environments' and the pods') compiles with C1 only: starts cost far less CPU
  // (docs/testenv.md) and e2e Keycloaks live minutes. Benchmarks keep the JVM's default.
  process.env.REALMFORGE_KEYCLOAK_JAVA_OPTIONS ??= '-XX:TieredStopAtLevel=1';
  // Each start waits for the one before to settle (up or failed); a shard whose environment failed runs nothing.
  let done = false;
  let previous: Promise<unknown> = Promise.resolve();
  const shards = files.map((file) => {
    const shard = previous.then(async () => {
      if (done) throw new Error('torn down before it started');
      const state = await withState(file, () => up({ log }));
      return { ...envVars(state, file), REALMFORGE_TESTENV_REQUIRED: '1' };
    });
    previous = shard.catch(() => undefined);
    return shard;
  });
  const teardown = async () => {
    if (done) return;
    done = true;
    await previous; // an environment still starting is torn down too, once its start settled
    for (const file of files)
      await withState(file, () => down({ log })).catch((e) => log(`teardown failed: ${describeError(e)}`));
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      log(`${signal}: tearing down`);
      void teardown().then(() => process.exit(130));
    });
  }
  return { shards, teardown };
}
