// `realmforge run` states its effective settings in its first log line, so that a changed flag or rate-limit
// variable (a Helm upgrade) can be read from the log of the new pod.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runOperator } from '../../../src/operator/cli/run-command.ts';

/** A kubeconfig for a server that is never contacted long enough to matter (the run stops at once). */
function unreachableKubeconfig(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'realmforge-run-')), 'kubeconfig');
  writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:1' } }],
      users: [{ name: 'u', user: { token: 't' } }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'x',
    }),
  );
  return file;
}

async function startupLine(flags: Record<string, unknown>, env: Record<string, string>) {
  let stdout = '';
  const io = {
    stdout: {
      write: (s: string) => {
        stdout += s;
        return true;
      },
    },
    stderr: { write: () => true },
  };
  const code = await runOperator(io as never, flags, {
    onStop: (stop) => setImmediate(stop),
    env: { KUBECONFIG: unreachableKubeconfig(), REALMFORGE_METRICS_HOST: '127.0.0.1', ...env },
  });
  assert.is(code, 0);
  const lines = stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  return lines.find((l) => l.msg === 'operator started');
}

test('the startup line carries the rate limits from the environment and the flags in effect', async () => {
  const line = await startupLine(
    { metricsPort: 0, driftInterval: '90s', logLevel: 'info', concurrency: 2 },
    {
      KEYCLOAK_API_GLOBAL_RATE_LIMIT_TPS: '100',
      KEYCLOAK_API_NAMESPACE_RATE_LIMIT_TPS: '10',
      KEYCLOAK_API_NAMESPACE_RATE_LIMIT_BURST: '20',
      POD_NAME: 'realmforge-operator-abc',
    },
  );
  assert.ok(line, 'an "operator started" line is logged');
  assert.equal(line.rateLimits, { global: { tps: 100, burst: 100 }, namespace: { tps: 10, burst: 20 } });
  assert.is(line.driftIntervalMs, 90_000);
  assert.is(line.logLevel, 'info');
  assert.is(line.concurrency, 2);
  assert.is(line.leaderElect, false);
  assert.is(line.identity, 'realmforge-operator-abc');
  assert.type(line.metricsPort, 'number');
  assert.is.not(line.metricsPort, 0, 'the port actually bound, not the requested 0');
});

test('without rate-limit variables the startup line shows the defaults 50/100 and 5/10', async () => {
  const line = await startupLine({ metricsPort: 0 }, {});
  assert.equal(line.rateLimits, { global: { tps: 50, burst: 100 }, namespace: { tps: 5, burst: 10 } });
  assert.is(line.driftIntervalMs, 60_000);
});

test.run();
