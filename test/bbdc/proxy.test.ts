import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type FakeBitbucket, startFakeBitbucket } from '../fake-bitbucket/server.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { startConnectProxy, type TestProxy } from './helpers/connect-proxy.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc through HTTPS_PROXY / HTTP_PROXY, and NO_PROXY');
const dir = mkdtempSync(join(tmpdir(), 'bbdc-proxy-'));
const certFile = join(dir, 'cert.pem');
let tlsFake: FakeBitbucket;
let plainFake: FakeBitbucket;
let proxy: TestProxy;

test.before(async () => {
  const res = spawnSync('openssl', [
    ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1'],
    ...['-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', certFile],
  ]);
  assert.is(res.status, 0, String(res.stderr));
  tlsFake = await startFakeBitbucket({
    tls: { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(certFile, 'utf8') },
  });
  plainFake = await startFakeBitbucket();
  proxy = await startConnectProxy();
});
test.after(async () => {
  await Promise.all([tlsFake.close(), plainFake.close(), proxy.close()]);
  rmSync(dir, { recursive: true, force: true });
});

const run = async (fake: FakeBitbucket, env: Record<string, string>, ...argv: string[]) => {
  const w = createWorld({ env: { BBDC_URL: fake.url, BBDC_TOKEN: credentials.alice.token, ...env } });
  try {
    return await w.run(argv);
  } finally {
    w.dispose();
  }
};

test('HTTPS goes through the proxy as a CONNECT tunnel, and --ca-file still verifies the server', async () => {
  proxy.seen.length = 0;
  const before = tlsFake.requests.length;
  const r = await run(tlsFake, { HTTPS_PROXY: proxy.url }, 'auth', 'whoami', '--ca-file', certFile, '--json');
  assert.is(r.code, 0, r.stderr);
  assert.is(r.json().data.username, 'alice');
  const port = new URL(tlsFake.url).port;
  assert.equal(proxy.seen, [`CONNECT 127.0.0.1:${port}`]);
  assert.ok(tlsFake.requests.length > before, 'the request reached the server through the tunnel');
  const untrusted = await run(tlsFake, { https_proxy: proxy.url }, 'auth', 'whoami');
  assert.is(untrusted.code, 2, 'TLS is verified end to end through the tunnel');
  assert.match(untrusted.stderr, 'DEPTH_ZERO_SELF_SIGNED_CERT');
});

test('HTTP goes through HTTP_PROXY; NO_PROXY (a host, host:port or a domain suffix) bypasses it', async () => {
  proxy.seen.length = 0;
  const r = await run(plainFake, { HTTP_PROXY: proxy.url }, 'repo', 'list', '--json');
  assert.is(r.code, 0, r.stderr);
  assert.ok(proxy.seen.length >= 1);
  assert.ok(
    proxy.seen.every((s) => s.startsWith(`GET ${plainFake.url}/rest/api/latest/`)),
    proxy.seen[0],
  );
  for (const noProxy of ['127.0.0.1', `127.0.0.1:${new URL(plainFake.url).port}`, 'example.com,127.0.0.1']) {
    proxy.seen.length = 0;
    const bypass = await run(
      plainFake,
      { HTTP_PROXY: proxy.url, NO_PROXY: noProxy },
      'repo',
      'list',
      '--json',
    );
    assert.is(bypass.code, 0, bypass.stderr);
    assert.equal(proxy.seen, [], `NO_PROXY=${noProxy}`);
  }
  proxy.seen.length = 0;
  const tls = await run(
    tlsFake,
    { HTTPS_PROXY: proxy.url, no_proxy: '127.0.0.1' },
    'auth',
    'whoami',
    '--ca-file',
    certFile,
  );
  assert.is(tls.code, 0, tls.stderr);
  assert.equal(proxy.seen, []);
});

test('a proxy that refuses the tunnel is an error naming the proxy settings, not retried as a server failure', async () => {
  const denying = await startConnectProxy({ deny: true });
  try {
    const r = await run(tlsFake, { HTTPS_PROXY: denying.url }, 'auth', 'whoami', '--ca-file', certFile);
    assert.is(r.code, 10, r.stderr);
    assert.match(r.stderr, 'HTTPS_PROXY');
    assert.ok(denying.seen.length >= 1);
  } finally {
    await denying.close();
  }
});

test.run();
