// Loading the operator's API server access from kubeconfig files and from the in-cluster ServiceAccount, and
// using it: a TLS server on 127.0.0.1 that requires the client certificate the kubeconfig names.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { makePki } from '../../../scripts/testenv/certs.ts';
import { manualClock } from '../../../src/core/clock.ts';
import { UsageError } from '../../../src/core/errors.ts';
import { kubeconfigAccess, loadKubeAccess } from '../../../src/operator/runtime/kube-config.ts';
import { inClusterAccess } from '../../../src/operator/runtime/kube-in-cluster.ts';
import { kubeTransport } from '../../../src/operator/runtime/kube-transport.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** An in-memory file system. */
function files(entries: Record<string, string>) {
  const map = new Map(Object.entries(entries));
  const read = (path: string) => {
    const text = map.get(path);
    if (text === undefined) throw new Error(`ENOENT: no such file, open '${path}'`);
    return text;
  };
  return { map, read };
}

const kubeconfig = (o: { cluster?: string; user?: string; current?: string; name?: string } = {}) => `
apiVersion: v1
kind: Config
clusters:
- name: ${o.name ?? 'prod'}
  cluster:
${o.cluster ?? `    server: https://10.0.0.1:6443/\n    certificate-authority-data: ${b64('CA')}`}
users:
- name: ${o.name ?? 'prod'}-admin
  user:
${o.user ?? '    token: static-token'}
contexts:
- name: ${o.name ?? 'prod'}
  context:
    cluster: ${o.name ?? 'prod'}
    user: ${o.name ?? 'prod'}-admin
${o.current === '' ? '' : `current-context: ${o.current ?? o.name ?? 'prod'}`}
`;

test('a kubeconfig: server, CA file relative to the kubeconfig, client certificate data, static token', async () => {
  const fs = files({
    '/home/u/.kube/config': kubeconfig({
      cluster: '    server: https://10.0.0.1:6443/\n    certificate-authority: certs/ca.crt',
      user: `    client-certificate-data: ${b64('CERT')}\n    client-key-data: ${b64('KEY')}\n    token: static-token`,
    }),
    '/home/u/.kube/certs/ca.crt': 'CA',
  });
  const access = kubeconfigAccess(['/home/u/.kube/config'], fs.read, manualClock());
  assert.is(access.server, 'https://10.0.0.1:6443');
  assert.is(access.ca, 'CA');
  assert.is(access.cert, 'CERT');
  assert.is(access.key, 'KEY');
  assert.is(access.insecureSkipTlsVerify, false);
  assert.is(await access.authorization(), 'Bearer static-token');
  assert.is(access.source, 'kubeconfig /home/u/.kube/config (context prod)');
});

test('CA data wins over a CA file; insecure-skip-tls-verify and tls-server-name are honoured', () => {
  const fs = files({
    '/k': kubeconfig({
      cluster: `    server: https://api.example.test\n    certificate-authority-data: ${b64('INLINE')}\n    certificate-authority: /missing\n    insecure-skip-tls-verify: true\n    tls-server-name: kubernetes`,
    }),
  });
  const access = kubeconfigAccess(['/k'], fs.read, manualClock());
  assert.is(access.ca, 'INLINE');
  assert.is(access.insecureSkipTlsVerify, true);
  assert.is(access.tlsServerName, 'kubernetes');
});

test('KUBECONFIG lists files: the first to define a name or the current context wins, missing files are skipped', () => {
  const fs = files({
    '/a': kubeconfig({ name: 'dev', current: 'dev' }),
    '/b': kubeconfig({
      name: 'prod',
      cluster: '    server: https://prod.example.test',
      current: 'prod',
    }),
  });
  const env = { KUBECONFIG: '/missing:/b:/a', KUBERNETES_SERVICE_HOST: '10.96.0.1' };
  const access = loadKubeAccess({ env }, fs.read, manualClock());
  assert.is(access.server, 'https://prod.example.test', 'KUBECONFIG wins over the in-cluster config');
  assert.is(access.source, 'kubeconfig /b:/a (context prod)');
  const flag = loadKubeAccess({ kubeconfig: '/a', env }, fs.read, manualClock());
  assert.is(flag.source, 'kubeconfig /a (context dev)', '--kubeconfig wins over KUBECONFIG');
});

test('a token file is re-read once a minute (a rotated token is picked up) and at once after a 401', async () => {
  const fs = files({ '/k': kubeconfig({ user: '    tokenFile: /token' }), '/token': 'one\n' });
  const clock = manualClock();
  const access = kubeconfigAccess(['/k'], fs.read, clock);
  assert.is(await access.authorization(), 'Bearer one');
  fs.map.set('/token', 'two');
  clock.advance(30_000);
  assert.is(await access.authorization(), 'Bearer one', 'cached within the minute');
  clock.advance(30_000);
  assert.is(await access.authorization(), 'Bearer two');
  fs.map.set('/token', 'three');
  access.refresh();
  assert.is(await access.authorization(), 'Bearer three');
});

test('in-cluster: the service host and port, the ServiceAccount CA and its rotating token', async () => {
  const dir = '/var/run/secrets/kubernetes.io/serviceaccount';
  const fs = files({ [`${dir}/token`]: 'sa-1', [`${dir}/ca.crt`]: 'CLUSTER-CA' });
  const clock = manualClock();
  const env = { KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' };
  const access = loadKubeAccess({ env }, fs.read, clock);
  assert.is(access.server, 'https://[fd00::1]:443');
  assert.is(access.ca, 'CLUSTER-CA');
  assert.is(await access.authorization(), 'Bearer sa-1');
  fs.map.set(`${dir}/token`, 'sa-2');
  clock.advance(60_000);
  assert.is(await access.authorization(), 'Bearer sa-2');
  const missing = () => inClusterAccess(env, files({}).read, clock);
  assert.throws(
    missing,
    (e: Error) => e instanceof UsageError && /automountServiceAccountToken/.test(e.message),
  );
});

test('bad kubeconfigs are usage errors naming the file and what to do', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [
      { '/k': kubeconfig({ current: '' }) },
      /kubeconfig \/k has no current-context: set one with kubectl config use-context/,
    ],
    [
      { '/k': kubeconfig({ current: 'other' }) },
      /context "other" names context "other", which is not defined/,
    ],
    [
      { '/k': kubeconfig({ cluster: '    server: 10.0.0.1' }) },
      /cluster "prod" has no https:\/\/ server URL/,
    ],
    [
      { '/k': kubeconfig({ user: '    auth-provider:\n      name: gcp' }) },
      /user "prod-admin": the field "auth-provider" is not supported by realmforge run \(use a token/,
    ],
    [
      { '/k': kubeconfig({ cluster: '    server: https://a\n    certificate-authority: ca.crt' }) },
      /cannot read certificate-authority \/ca\.crt/,
    ],
    [{ '/k': 'clusters: {' }, /the kubeconfig \/k is not valid YAML/],
  ];
  for (const [entries, message] of cases) {
    const fs = files(entries);
    assert.throws(
      () => loadKubeAccess({ env: { KUBECONFIG: '/k' } }, fs.read, manualClock()),
      (e: Error) => e instanceof UsageError && message.test(e.message),
      String(message),
    );
  }
  assert.throws(
    () => loadKubeAccess({ env: { KUBECONFIG: '/none', HOME: '/nobody' } }, files({}).read, manualClock()),
    /none of the KUBECONFIG files exist \(\/none\)/,
  );
  assert.throws(
    () => loadKubeAccess({ env: { HOME: '/nobody' } }, files({}).read, manualClock()),
    /no Kubernetes configuration: set KUBECONFIG or --kubeconfig, or run inside a cluster/,
  );
});

test('over TLS: the kubeconfig CA verifies the server and its client certificate authenticates', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kube-config-test-'));
  const pki = await makePki(dir);
  const server = createServer(
    {
      cert: readFileSync(pki.servingCert),
      key: readFileSync(pki.servingKey),
      ca: readFileSync(pki.caCert),
      requestCert: true,
      rejectUnauthorized: true,
    },
    (req, res) => {
      const peer = (req.socket as TLSSocket).getPeerCertificate();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ user: peer.subject?.CN }));
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const file = join(dir, 'kubeconfig');
  writeFileSync(
    file,
    kubeconfig({
      cluster: `    server: https://127.0.0.1:${port}\n    certificate-authority: ca.crt`,
      user: '    client-certificate: admin.crt\n    client-key: admin.key',
    }),
  );
  const read = (p: string) => readFileSync(p, 'utf8');
  const transport = kubeTransport(kubeconfigAccess([file], read, manualClock()));
  try {
    const res = await transport.request('GET', '/version');
    assert.equal(
      { status: res.status, body: res.body },
      { status: 200, body: { user: 'realmforge-testenv-admin' } },
    );
  } finally {
    await transport.close();
    server.close();
  }
});

const execUser = `    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: bin/get-token
      args: [--cluster, prod]
      env:
      - name: AWS_PROFILE
        value: ops`;

test('an exec credential plugin: run without a terminal, its token reused until shortly before expiry or a 401', async () => {
  const clock = manualClock(Date.UTC(2026, 0, 1));
  const runs: { command: string; args: readonly string[]; env: Record<string, string> }[] = [];
  const run = async (command: string, args: readonly string[], env: Record<string, string>) => {
    runs.push({ command, args, env });
    const expires = new Date(clock.now() + 10 * 60_000).toISOString();
    return JSON.stringify({
      apiVersion: 'client.authentication.k8s.io/v1beta1',
      kind: 'ExecCredential',
      status: { token: `token-${runs.length}`, expirationTimestamp: expires },
    });
  };
  const fs = files({ '/home/u/.kube/config': kubeconfig({ user: execUser }) });
  const access = kubeconfigAccess(['/home/u/.kube/config'], fs.read, clock, { run });
  assert.is(await access.authorization(), 'Bearer token-1');
  assert.is(runs[0].command, '/home/u/.kube/bin/get-token', 'a relative command is next to the kubeconfig');
  assert.equal(runs[0].args, ['--cluster', 'prod']);
  assert.is(runs[0].env.AWS_PROFILE, 'ops');
  assert.equal(JSON.parse(runs[0].env.KUBERNETES_EXEC_INFO), {
    apiVersion: 'client.authentication.k8s.io/v1beta1',
    kind: 'ExecCredential',
    spec: { interactive: false },
  });
  clock.advance(9 * 60_000);
  assert.is(await access.authorization(), 'Bearer token-1', 'reused while valid');
  clock.advance(40_000);
  assert.is(await access.authorization(), 'Bearer token-2', 'renewed 30 s before it expires');
  access.refresh();
  assert.is(await access.authorization(), 'Bearer token-3', 'renewed after a 401');
  assert.is(runs.length, 3);
});

test('an exec plugin that fails or prints no token is named with its output', async () => {
  const fs = files({ '/k': kubeconfig({ user: execUser }) });
  const failing = async () => {
    throw Object.assign(new Error('Command failed'), { stderr: 'error: SSO session expired\n' });
  };
  const error = await kubeconfigAccess(['/k'], fs.read, manualClock(), { run: failing })
    .authorization()
    .catch((e) => e);
  assert.instance(error, UsageError);
  assert.match(
    error.message,
    /user "prod-admin": the credential plugin `\/bin\/get-token --cluster prod` failed: error: SSO session expired/,
  );
  const empty = await kubeconfigAccess(['/k'], fs.read, manualClock(), { run: async () => '{}' })
    .authorization()
    .catch((e) => e);
  assert.match(empty.message, /printed no ExecCredential with status.token/);
});

test('the real runner runs the plugin as a process with its environment', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'realmforge-exec-'));
  const script = join(dir, 'plugin.mjs');
  writeFileSync(
    script,
    "const info = JSON.parse(process.env.KUBERNETES_EXEC_INFO); console.log(JSON.stringify({ kind: 'ExecCredential', status: { token: process.env.TEAM + '-' + info.spec.interactive } }));",
  );
  const file = join(dir, 'kubeconfig');
  writeFileSync(
    file,
    kubeconfig({
      user: `    exec:\n      command: ${process.execPath}\n      args: [${script}]\n      env: [{name: TEAM, value: ops}]`,
    }),
  );
  const access = kubeconfigAccess([file], (p) => readFileSync(p, 'utf8'), manualClock());
  assert.is(await access.authorization(), 'Bearer ops-false');
});

test.run();
