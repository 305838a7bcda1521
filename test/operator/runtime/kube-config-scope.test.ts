// The kubeconfig fields realmforge run honours beyond the basics (impersonation, proxies, tokenFile beside its
// kubeconfig, --context, exec plugin settings) and the ones it refuses by name; requests carry what was loaded.
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { manualClock } from '../../../src/core/clock.ts';
import { UsageError } from '../../../src/core/errors.ts';
import { kubeconfigAccess, loadKubeAccess } from '../../../src/operator/runtime/kube-config.ts';
import { extraHeaderKey } from '../../../src/operator/runtime/kube-impersonation.ts';
import { proxyFor } from '../../../src/operator/runtime/kube-proxy.ts';
import { kubeTransport } from '../../../src/operator/runtime/kube-transport.ts';

function files(entries: Record<string, string>) {
  const map = new Map(Object.entries(entries));
  return (path: string) => {
    const text = map.get(path);
    if (text === undefined) throw new Error(`ENOENT: no such file, open '${path}'`);
    return text;
  };
}

const config = (cluster: string, user: string, extra = '') => `
clusters:
- name: c
  cluster:
    server: https://10.0.0.1:6443
${cluster}
- name: other
  cluster:
    server: https://other.example.test
users:
- name: u
  user:
${user}
- name: v
  user:
    token: other-token
contexts:
- name: main
  context: {cluster: c, user: u}
- name: second
  context: {cluster: other, user: v, namespace: team-a}
current-context: main
${extra}`;

const load = (text: string, options = {}) =>
  kubeconfigAccess(
    ['/cfg/kubeconfig'],
    files({ '/cfg/kubeconfig': text, '/cfg/token': 'from-file\n' }),
    manualClock(),
    options,
  );

test('impersonation: as, as-groups, as-uid and as-user-extra become Impersonate-* headers', () => {
  const access = load(
    config(
      '',
      `    token: t
    as: alice
    as-groups: [devs, ops]
    as-uid: "1234"
    as-user-extra:
      scopes.example.com/team: [a, b]`,
    ),
  );
  assert.equal(access.impersonation, {
    'impersonate-user': 'alice',
    'impersonate-group': ['devs', 'ops'],
    'impersonate-uid': '1234',
    'impersonate-extra-scopes.example.com%2Fteam': ['a', 'b'],
  });
  assert.is(extraHeaderKey('ä b'), 'impersonate-extra-%C3%A4%20b');
  assert.throws(
    () => load(config('', '    token: t\n    as-groups: [devs]')),
    /as-groups, as-uid and as-user-extra need as/,
  );
});

test('a relative tokenFile is read beside its kubeconfig, and wins over token as in client-go', async () => {
  const access = load(config('', '    token: inline\n    tokenFile: token'));
  assert.is(await access.authorization(), 'Bearer from-file');
});

test('--context picks another context; an unknown one is named', async () => {
  const access = load(config('', '    token: t'), { context: 'second' });
  assert.is(access.server, 'https://other.example.test');
  assert.is(await access.authorization(), 'Bearer other-token');
  assert.is(access.source, 'kubeconfig /cfg/kubeconfig (context second)');
  assert.throws(
    () => load(config('', '    token: t'), { context: 'nope' }),
    /--context names context "nope", which is not defined/,
  );
  assert.throws(
    () =>
      loadKubeAccess(
        { context: 'x', env: { KUBERNETES_SERVICE_HOST: '10.0.0.1', HOME: '/nobody' } },
        files({}),
        manualClock(),
      ),
    /--context x needs a kubeconfig/,
  );
});

test('every field outside the declared scope is refused at start with its name', () => {
  const cases: [string, RegExp][] = [
    [
      config('    compression: gzip', '    token: t'),
      /cluster "c": the field "compression" is not supported/,
    ],
    [
      config('', '    username: a\n    password: b'),
      /user "u": the field "username" is not supported by realmforge run \(basic authentication was removed/,
    ],
    [
      config('', '    token-file: /t'),
      /the field "token-file" is not supported by realmforge run \(the kubeconfig field is tokenFile\)/,
    ],
    [
      config('', '    token: t', 'colours: true'),
      /the kubeconfig \/cfg\/kubeconfig: the field "colours" is not supported/,
    ],
    [
      config('    proxy-url: ftp://proxy:21', '    token: t'),
      /proxy-url: the proxy scheme ftp is not supported: use http, https or socks5/,
    ],
    [
      config('', '    exec:\n      command: x\n      interactiveMode: Always'),
      /exec interactiveMode Always needs a terminal/,
    ],
    [
      config('', '    exec:\n      command: x\n      apiVersion: client.authentication.k8s.io/v1alpha1'),
      /exec apiVersion client.authentication.k8s.io\/v1alpha1 is not supported/,
    ],
    [
      config('', '    exec:\n      command: x\n      stdin: true'),
      /exec: the field "stdin" is not supported/,
    ],
  ];
  for (const [text, message] of cases) {
    assert.throws(
      () => load(text),
      (e: Error) => e instanceof UsageError && message.test(e.message),
      String(message),
    );
  }
  // A null field is absent (client-node's exportConfig writes `auth-provider: null`, `as: null` and a context's name).
  load(
    config('', '    token: t\n    auth-provider: null\n    as: null\n    username: null').replace(
      'context: {cluster: c, user: u}',
      'context: {cluster: c, user: u, name: main}',
    ),
  );
  // Entries the chosen context does not use may hold anything, as with kubectl.
  load(config('', '    token: t').replace('    token: other-token', '    auth-provider: {name: gcp}'));
});

test('proxies: proxy-url wins; else HTTPS_PROXY unless NO_PROXY names the host, its domain, its range or *', () => {
  const env = { HTTPS_PROXY: 'proxy.corp:3128', NO_PROXY: '.svc,10.96.0.0/12,api.internal:6443' };
  assert.is(proxyFor('https://k.example.test', 'socks5://s:1080', env, 'w'), 'socks5://s:1080');
  assert.is(proxyFor('https://k.example.test', undefined, env, 'w'), 'http://proxy.corp:3128');
  assert.is(proxyFor('https://kubernetes.default.svc', undefined, env, 'w'), undefined);
  assert.is(proxyFor('https://10.96.0.1:443', undefined, env, 'w'), undefined);
  assert.is(proxyFor('https://api.internal:6443', undefined, env, 'w'), undefined);
  assert.is(proxyFor('https://api.internal:8443', undefined, env, 'w'), 'http://proxy.corp:3128');
  assert.is(
    proxyFor('https://[fd00::1]:6443', undefined, { https_proxy: 'http://p:1', no_proxy: '*' }, 'w'),
    undefined,
  );
  assert.is(
    proxyFor('http://k:80', undefined, { HTTPS_PROXY: 'http://p:1' }, 'w'),
    undefined,
    'HTTP_PROXY for http://',
  );
  assert.is(
    load(config('    proxy-url: http://p.corp:8080', '    token: t'), { env }).proxy,
    'http://p.corp:8080',
  );
  assert.is(load(config('', '    token: t'), { env }).proxy, 'http://proxy.corp:3128');
});

test('exec: one run shared by concurrent requests, the loop never blocked, installHint when it is missing', async () => {
  let runs = 0;
  let finish: (out: string) => void = () => {};
  const run = () => {
    runs++;
    return new Promise<string>((resolve) => {
      finish = resolve;
    });
  };
  const access = load(config('', '    exec:\n      command: get-token'), { run });
  const both = Promise.all([access.authorization(), access.authorization()]);
  let ticked = false;
  await new Promise((r) => setImmediate(r)).then(() => {
    ticked = true;
  });
  assert.ok(ticked, 'the event loop runs while the plugin does');
  finish(JSON.stringify({ status: { token: 'shared' } }));
  assert.equal(await both, ['Bearer shared', 'Bearer shared']);
  assert.is(runs, 1);
  const missing = async () => {
    throw Object.assign(new Error('spawn aws ENOENT'), { code: 'ENOENT' });
  };
  const hinted = load(
    config(
      '',
      '    exec:\n      command: aws\n      installHint: install the AWS CLI from https://aws.amazon.com/cli/',
    ),
    { run: missing },
  );
  const error = await hinted.authorization().catch((e) => e);
  assert.match(error.message, /the credential plugin `aws` is not installed: install the AWS CLI/);
});

test('provideClusterInfo hands the plugin the cluster (server, CA, extension config)', async () => {
  let info: { spec?: { cluster?: Record<string, unknown> } } = {};
  const run = async (_c: string, _a: readonly string[], env: Record<string, string>) => {
    info = JSON.parse(env.KUBERNETES_EXEC_INFO);
    return JSON.stringify({ status: { token: 't' } });
  };
  const cluster = `    certificate-authority-data: ${Buffer.from('CA').toString('base64')}
    extensions:
    - name: client.authentication.k8s.io/exec
      extension: {audience: prod}`;
  await load(config(cluster, '    exec:\n      command: p\n      provideClusterInfo: true'), {
    run,
  }).authorization();
  assert.is(info.spec?.cluster?.server, 'https://10.0.0.1:6443');
  assert.is(info.spec?.cluster?.['certificate-authority-data'], Buffer.from('CA').toString('base64'));
  assert.equal(info.spec?.cluster?.config, { audience: 'prod' });
});

test('requests carry the impersonation headers and go through the proxy', async () => {
  const seen: { user?: string | string[]; groups?: string | string[] }[] = [];
  const api = createServer((req, res) => {
    seen.push({ user: req.headers['impersonate-user'], groups: req.headers['impersonate-group'] });
    res.end('{}');
  });
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  // A forwarding HTTP proxy: an http:// server is asked for in absolute form (https:// would use CONNECT).
  const forwarded: string[] = [];
  const proxy = createServer((req, res) => {
    forwarded.push(String(req.url));
    const upstream = httpRequest(String(req.url), { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const apiPort = (api.address() as AddressInfo).port;
  const proxyPort = (proxy.address() as AddressInfo).port;
  const text = config('', '    token: t\n    as: alice\n    as-groups: [a, b]').replace(
    'server: https://10.0.0.1:6443',
    `server: http://127.0.0.1:${apiPort}\n    proxy-url: http://127.0.0.1:${proxyPort}`,
  );
  const transport = kubeTransport(load(text));
  try {
    assert.is((await transport.request('GET', '/version')).status, 200);
    assert.equal(forwarded, [`http://127.0.0.1:${apiPort}/version`]);
    assert.equal(seen, [{ user: 'alice', groups: 'a, b' }]);
  } finally {
    await transport.close();
    api.closeAllConnections();
    api.close();
    proxy.closeAllConnections();
    proxy.close();
  }
});

test.run();
