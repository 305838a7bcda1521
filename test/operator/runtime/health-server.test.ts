// The health endpoint serves its three paths, and loading it does not pull in Node's internal copy of undici (an
// ES import of node:http would: 2.4 MB of the operator's RSS for nothing).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startHealthServer } from '../../../src/operator/runtime/health-server.ts';

test('serves /healthz, /readyz as the readiness says, /metrics, and 404 elsewhere', async () => {
  let ready = false;
  const server = await startHealthServer({
    port: 0,
    host: '127.0.0.1',
    registry: new Registry(),
    ready: () => ready,
  });
  const get = async (path: string) => {
    const res = await fetch(`http://127.0.0.1:${server.port}${path}`);
    return `${res.status} ${(await res.text()).trim()}`;
  };
  try {
    assert.is(await get('/healthz'), '200 ok');
    assert.is(await get('/readyz'), '503 not ready');
    ready = true;
    assert.is(await get('/readyz'), '200 ok');
    assert.is((await get('/metrics')).slice(0, 3), '200');
    assert.is(await get('/nope'), '404 not found');
  } finally {
    await server.close();
  }
});

test("loading the health server leaves Node's internal undici unloaded", () => {
  const file = join(import.meta.dirname, '..', '..', '..', 'src', 'operator', 'runtime', 'health-server.ts');
  const loaded = execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `await import(${JSON.stringify(file)}); console.log(process.moduleLoadList.join('\\n'))`,
    ],
    { encoding: 'utf8' },
  );
  assert.ok(loaded.includes('NativeModule http'), 'node:http is loaded');
  assert.not.ok(loaded.includes('internal/deps/undici/undici'), "Node's internal undici is loaded");
});

test.run();
