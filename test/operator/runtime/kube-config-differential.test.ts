// The kubeconfig loader against the official client: every fixture is loaded by @kubernetes/client-node and by
// realmforge's own loader, and the server, CA, client certificate, key, token, impersonation, proxy and TLS
// settings must agree, or ours must refuse with a message naming the field. Where client-node is known to drop a
// field client-go honours (tokenFile, as-groups, as-uid, as-user-extra), the fixture states client-go's value.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { manualClock } from '../../../src/core/clock.ts';
import { UsageError } from '../../../src/core/errors.ts';
import { kubeconfigAccess } from '../../../src/operator/runtime/kube-config.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const root = mkdtempSync(join(tmpdir(), 'kubeconfig-differential-'));
const plugin = join(root, 'plugin.mjs');
writeFileSync(
  plugin,
  // client-node does not set KUBERNETES_EXEC_INFO; the plugin reads its apiVersion from its own env entry.
  "const v = process.env.API; console.log(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/' + v, kind: 'ExecCredential', status: { token: 'exec-' + process.env.TEAM + '-' + v } }));",
);
chmodSync(plugin, 0o755);

type Settings = {
  server?: string;
  ca?: string;
  cert?: string;
  key?: string;
  authorization?: string;
  impersonateUser?: string;
  proxy?: string;
  insecure?: boolean;
  tlsServerName?: string;
};

type Fixture = {
  name: string;
  /** Files of the fixture (the first is the kubeconfig; several are merged as KUBECONFIG lists them). */
  files: Record<string, string>;
  context?: string;
  /** Ours must refuse with this message. */
  refused?: RegExp;
  /** Fields where client-node drops what client-go honours: client-go's value, and why. */
  clientGo?: Partial<Settings> & { headers?: Record<string, string | string[]>; why: string };
};

const cfg = (cluster: string, user: string, extra = '') => `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster:
${cluster}
users:
- name: u
  user:
${user}
contexts:
- name: main
  context: {cluster: c, user: u}
current-context: main
${extra}`;
const server = '    server: https://203.0.113.10:6443';
const caData = `${server}\n    certificate-authority-data: ${b64('CA-DATA')}`;
const exec = (apiVersion: string, extra = '') =>
  `    exec:\n      apiVersion: client.authentication.k8s.io/${apiVersion}\n      command: ${process.execPath}\n      args: [${plugin}]\n      env: [{name: TEAM, value: ops}, {name: API, value: ${apiVersion}}]${extra}`;

/** `text` as @kubernetes/client-node exports it again. */
function exported(text: string): string {
  const kc = new KubeConfig();
  kc.loadFromString(text);
  return kc.exportConfig();
}

const fixtures: Fixture[] = [
  { name: 'static token, CA data', files: { kubeconfig: cfg(caData, '    token: abc') } },
  {
    name: 'CA, certificate and key as files beside the kubeconfig',
    files: {
      kubeconfig: cfg(
        `${server}\n    certificate-authority: pki/ca.crt`,
        '    client-certificate: pki/u.crt\n    client-key: pki/u.key',
      ),
      'pki/ca.crt': 'CA-FILE',
      'pki/u.crt': 'CERT-FILE',
      'pki/u.key': 'KEY-FILE',
    },
  },
  {
    name: 'certificate and key as data',
    files: {
      kubeconfig: cfg(
        caData,
        `    client-certificate-data: ${b64('CERT-DATA')}\n    client-key-data: ${b64('KEY-DATA')}`,
      ),
    },
  },
  {
    name: 'data wins over a file',
    files: {
      kubeconfig: cfg(
        `${caData}\n    certificate-authority: ca.crt`,
        `    client-certificate-data: ${b64('CD')}\n    client-certificate: u.crt\n    client-key-data: ${b64('KD')}\n    client-key: u.key`,
      ),
      'ca.crt': 'CA-FILE',
      'u.crt': 'CERT-FILE',
      'u.key': 'KEY-FILE',
    },
    clientGo: {
      ca: 'CA-DATA',
      cert: 'CD',
      key: 'KD',
      why: 'client-node reads the file first; in client-go the *-data field overrides the file',
    },
  },
  {
    name: 'insecure-skip-tls-verify',
    files: { kubeconfig: cfg(`${server}\n    insecure-skip-tls-verify: true`, '    token: t') },
  },
  {
    name: 'tls-server-name',
    files: { kubeconfig: cfg(`${caData}\n    tls-server-name: kubernetes.default`, '    token: t') },
  },
  {
    name: 'IPv6 server',
    files: { kubeconfig: cfg('    server: https://[2001:db8::1]:6443', '    token: t') },
  },
  {
    name: 'server with a trailing slash',
    files: { kubeconfig: cfg('    server: https://api.example.test/', '    token: t') },
  },
  {
    name: 'http proxy-url',
    files: { kubeconfig: cfg(`${caData}\n    proxy-url: http://proxy.corp:3128`, '    token: t') },
  },
  {
    name: 'socks5 proxy-url',
    files: { kubeconfig: cfg(`${caData}\n    proxy-url: socks5://127.0.0.1:1080`, '    token: t') },
  },
  { name: 'impersonation: as', files: { kubeconfig: cfg(caData, '    token: t\n    as: alice') } },
  {
    name: 'impersonation: as with groups, uid and extras',
    files: {
      kubeconfig: cfg(
        caData,
        '    token: t\n    as: alice\n    as-groups: [devs]\n    as-uid: "42"\n    as-user-extra: {team: [a]}',
      ),
    },
    clientGo: {
      headers: {
        'impersonate-user': 'alice',
        'impersonate-group': ['devs'],
        'impersonate-uid': '42',
        'impersonate-extra-team': ['a'],
      },
      why: 'client-node sends only Impersonate-User; client-go sends all four',
    },
  },
  {
    name: 'tokenFile relative to the kubeconfig',
    files: { kubeconfig: cfg(caData, '    tokenFile: secrets/token'), 'secrets/token': 'from-file\n' },
    clientGo: {
      authorization: 'Bearer from-file',
      why: 'client-node reads token-file (not the kubeconfig field tokenFile)',
    },
  },
  { name: 'exec v1', files: { kubeconfig: cfg(caData, exec('v1', '\n      interactiveMode: Never')) } },
  { name: 'exec v1beta1', files: { kubeconfig: cfg(caData, exec('v1beta1')) } },
  {
    name: 'exec v1 with installHint and provideClusterInfo',
    files: {
      kubeconfig: cfg(
        caData,
        exec(
          'v1',
          '\n      installHint: get it\n      provideClusterInfo: true\n      interactiveMode: IfAvailable',
        ),
      ),
    },
  },
  {
    name: 'several contexts: the current one',
    files: {
      kubeconfig: `${cfg(caData, '    token: main-token')}\n`
        .replace('contexts:\n', 'contexts:\n- name: other\n  context: {cluster: c2, user: u2}\n')
        .replace('users:\n', 'users:\n- name: u2\n  user: {token: other-token}\n')
        .replace('clusters:\n', 'clusters:\n- name: c2\n  cluster: {server: "https://other.example.test"}\n'),
    },
  },
  {
    name: 'several contexts: another one chosen (--context)',
    context: 'other',
    files: {
      kubeconfig: `${cfg(caData, '    token: main-token')}\n`
        .replace('contexts:\n', 'contexts:\n- name: other\n  context: {cluster: c2, user: u2}\n')
        .replace('users:\n', 'users:\n- name: u2\n  user: {token: other-token}\n')
        .replace('clusters:\n', 'clusters:\n- name: c2\n  cluster: {server: "https://other.example.test"}\n'),
    },
  },
  {
    name: 'two files merged: the first current-context wins',
    files: {
      kubeconfig: 'current-context: second\n',
      'more/kubeconfig': cfg(caData, '    token: merged')
        .replace(/current-context: main/, '')
        .replace('- name: main', '- name: second'),
    },
  },
  {
    name: 'a context without a user',
    files: {
      kubeconfig: cfg(caData, '    {}').replace('context: {cluster: c, user: u}', 'context: {cluster: c}'),
    },
    clientGo: {
      ca: 'CA-DATA',
      why: 'client-node applies no TLS settings when the context has no user; client-go still trusts the cluster CA',
    },
  },
  {
    // What the e2e harness and other tools write: nulls for absent fields and the context's name inside it.
    name: 'written by client-node exportConfig',
    files: {
      kubeconfig: exported(cfg(caData, `    token: exported\n    client-certificate-data: ${b64('C')}`)),
    },
  },
  {
    name: 'refused: auth-provider',
    files: { kubeconfig: cfg(caData, '    auth-provider: {name: oidc, config: {id-token: x}}') },
    refused: /the field "auth-provider" is not supported/,
  },
  {
    name: 'refused: basic authentication',
    files: { kubeconfig: cfg(caData, '    username: a\n    password: b') },
    refused: /the field "username" is not supported .*basic authentication/,
  },
  {
    name: 'refused: exec interactiveMode Always',
    files: { kubeconfig: cfg(caData, exec('v1', '\n      interactiveMode: Always')) },
    refused: /interactiveMode Always needs a terminal/,
  },
  {
    name: 'refused: an unknown user field',
    files: { kubeconfig: cfg(caData, '    token: t\n    tokn: x') },
    refused: /the field "tokn" is not supported/,
  },
  {
    name: 'refused: an ftp proxy',
    files: { kubeconfig: cfg(`${caData}\n    proxy-url: ftp://p:21`, '    token: t') },
    refused: /the proxy scheme ftp is not supported/,
  },
];

function write(fixture: Fixture): string[] {
  const dir = join(root, fixture.name.replace(/[^a-z0-9]+/gi, '-'));
  const paths: string[] = [];
  for (const [name, text] of Object.entries(fixture.files)) {
    const path = join(dir, name);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
    if (name.endsWith('kubeconfig')) paths.push(path);
  }
  return paths;
}

async function official(paths: string[], context?: string): Promise<Settings> {
  const kc = new KubeConfig();
  const saved = process.env.KUBECONFIG;
  process.env.KUBECONFIG = paths.join(delimiter);
  try {
    kc.loadFromDefault(undefined, true);
  } finally {
    process.env.KUBECONFIG = saved;
  }
  if (context) kc.setCurrentContext(context);
  const opts: { ca?: Buffer; cert?: Buffer; key?: Buffer; headers?: Record<string, string> } = {};
  await kc.applyToHTTPSOptions(opts as never);
  const cluster = kc.getCurrentCluster();
  return {
    server: cluster?.server,
    ca: opts.ca?.toString(),
    cert: opts.cert?.toString(),
    key: opts.key?.toString(),
    authorization: opts.headers?.Authorization,
    impersonateUser: opts.headers?.['Impersonate-User'],
    proxy: cluster?.proxyUrl ?? undefined,
    insecure: cluster?.skipTLSVerify ?? false,
    tlsServerName: cluster?.tlsServerName ?? undefined,
  };
}

async function ours(paths: string[], context?: string) {
  const access = kubeconfigAccess(paths, (p) => readFileSync(p, 'utf8'), manualClock(), { context, env: {} });
  const settings: Settings = {
    server: access.server,
    ca: access.ca,
    cert: access.cert,
    key: access.key,
    authorization: await access.authorization(),
    impersonateUser: access.impersonation['impersonate-user'] as string | undefined,
    proxy: access.proxy,
    insecure: access.insecureSkipTlsVerify,
    tlsServerName: access.tlsServerName,
  };
  return { settings, headers: access.impersonation };
}

const clean = (s: Settings) =>
  Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined && v !== null));

test(`${fixtures.length} kubeconfig fixtures agree with @kubernetes/client-node, or are refused by name`, async () => {
  assert.ok(fixtures.length >= 20);
  for (const fixture of fixtures) {
    const paths = write(fixture);
    if (fixture.refused) {
      const error = await ours(paths, fixture.context).catch((e) => e);
      assert.instance(error, UsageError, fixture.name);
      assert.match(error.message, fixture.refused, fixture.name);
      continue;
    }
    const theirs = await official(paths, fixture.context);
    const mine = await ours(paths, fixture.context);
    const { why: _why, headers, ...goValues } = fixture.clientGo ?? { why: '' };
    assert.equal(clean(mine.settings), clean({ ...theirs, ...goValues }), fixture.name);
    if (headers) assert.equal(mine.headers, headers, `${fixture.name}: ${fixture.clientGo?.why}`);
  }
});

test.run();
