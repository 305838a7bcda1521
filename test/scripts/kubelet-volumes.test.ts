// The process kubelet's volumes: Secret bytes and ConfigMap items projected to files as a kubelet would, and
// mounted read-only at the container's path in the process's own mount namespace (the host path stays empty).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ContainerConfigError } from '../../scripts/testenv/kubelet-env.ts';
import { projectVolumes, type RawLookup, withMounts } from '../../scripts/testenv/kubelet-volumes.ts';

const keytab = Buffer.from([0x05, 0x02, 0x00, 0xff, 0x80, 0x00]);
const pod: V1Pod = {
  metadata: { name: 'kc-0', namespace: 'identity' },
  spec: {
    containers: [],
    volumes: [
      { name: 'keytab-sso', secret: { secretName: 'sso', items: [{ key: 'keytab', path: 'krb5.keytab' }] } },
      { name: 'krb5-conf', configMap: { name: 'krb5' } },
      { name: 'kube-api-access-x', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } },
    ],
  },
};
const container = (mountRoot: string): V1Container => ({
  name: 'keycloak',
  volumeMounts: [
    { name: 'keytab-sso', mountPath: `${mountRoot}/keytabs/sso`, readOnly: true },
    { name: 'krb5-conf', mountPath: `${mountRoot}/krb5`, readOnly: true },
    { name: 'kube-api-access-x', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true },
  ],
});
const lookup: RawLookup = async (kind, ns, name): Promise<Record<string, Buffer> | undefined> =>
  ns !== 'identity'
    ? undefined
    : kind === 'Secret' && name === 'sso'
      ? { keytab, other: Buffer.from('not projected') }
      : kind === 'ConfigMap' && name === 'krb5'
        ? { 'krb5.conf': Buffer.from('[libdefaults]\n') }
        : undefined;

test('Secret bytes and ConfigMap keys are projected as files; items pick and rename keys; no token volume', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubelet-volumes-'));
  const mounts = await projectVolumes(pod, container('/etc/x'), lookup, dir);
  assert.equal(mounts, [
    { source: join(dir, 'keytab-sso'), target: '/etc/x/keytabs/sso' },
    { source: join(dir, 'krb5-conf'), target: '/etc/x/krb5' },
  ]);
  assert.equal(readFileSync(join(dir, 'keytab-sso', 'krb5.keytab')), keytab, 'binary, byte for byte');
  assert.not.ok(existsSync(join(dir, 'keytab-sso', 'other')), 'only the listed items');
  assert.is(readFileSync(join(dir, 'krb5-conf', 'krb5.conf'), 'utf8'), '[libdefaults]\n');
});

test('a missing Secret or key is a container config error naming it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubelet-volumes-'));
  const noSecret: RawLookup = async (kind, ns, name) =>
    kind === 'Secret' ? undefined : lookup(kind, ns, name);
  await projectVolumes(pod, container('/x'), noSecret, dir).then(
    () => assert.unreachable('mounted without its Secret'),
    (e) => {
      assert.instance(e, ContainerConfigError);
      assert.is(e.message, 'secret "sso" not found');
    },
  );
  const noKey: RawLookup = async (kind, ns, name) =>
    kind === 'Secret' ? { other: Buffer.from('x') } : lookup(kind, ns, name);
  await projectVolumes(pod, container('/x'), noKey, dir).then(
    () => assert.unreachable('mounted without its key'),
    (e) => assert.is(e.message, `couldn't find key keytab in Secret identity/sso`),
  );
});

test('the process sees the volumes at their mount paths, read-only; the host path stays empty', async () => {
  if (process.getuid?.() !== 0) return console.log('  (skipped: mount namespaces need root)');
  const dir = mkdtempSync(join(tmpdir(), 'kubelet-volumes-'));
  const root = mkdtempSync(join(tmpdir(), 'kubelet-mountpoint-'));
  const mounts = await projectVolumes(pod, container(root), lookup, dir);
  const target = `${root}/keytabs/sso/krb5.keytab`;
  const run = withMounts(
    'sh',
    ['-c', `od -An -tx1 ${target}; touch ${root}/krb5/new 2>/dev/null || echo ro`],
    mounts,
  );
  const out = execFileSync(run.cmd, run.args, { encoding: 'utf8' });
  assert.equal(out.split(/\s+/).filter(Boolean), ['05', '02', '00', 'ff', '80', '00', 'ro']);
  assert.not.ok(existsSync(target), 'the bind mount stayed inside the process namespace');
});

test.run();
