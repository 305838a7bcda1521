import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type FakeBitbucket, startFakeBitbucket } from '../fake-bitbucket/server.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc TLS: --ca-file and --insecure-skip-verify');
const dir = mkdtempSync(join(tmpdir(), 'bbdc-tls-'));
const certFile = join(dir, 'cert.pem');
let fake: FakeBitbucket;

test.before(async () => {
  const res = spawnSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    join(dir, 'key.pem'),
    '-out',
    certFile,
  ]);
  assert.is(res.status, 0, String(res.stderr));
  fake = await startFakeBitbucket({
    tls: { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(certFile, 'utf8') },
  });
});
test.after(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});
const world = () => createWorld({ env: { BBDC_URL: fake.url, BBDC_TOKEN: credentials.alice.token } });

test('an untrusted certificate fails at once, without retries, and says how to trust it', async () => {
  const w = world();
  const r = await w.run(['auth', 'whoami']);
  assert.is(r.code, 2, r.stderr);
  assert.match(r.stderr, 'DEPTH_ZERO_SELF_SIGNED_CERT');
  assert.match(r.stderr, '--ca-file');
  assert.equal(w.sleeps, []);
  w.dispose();
});

test('--ca-file (or BBDC_CA_FILE) trusts the server', async () => {
  const w = world();
  const r = await w.run(['auth', 'whoami', '--ca-file', certFile, '--json']);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.json().data.username, 'alice');
  const env = await w.run(['auth', 'whoami'], { env: { BBDC_CA_FILE: certFile } });
  assert.is(env.code, 0, env.stderr);
  const missing = await w.run(['auth', 'whoami', '--ca-file', join(dir, 'nope.pem')]);
  assert.is(missing.code, 2);
  assert.match(missing.stderr, `--ca-file ${join(dir, 'nope.pem')} cannot be read (ENOENT)`);
  w.dispose();
});

test('--insecure-skip-verify connects without verifying, with one warning', async () => {
  const w = world();
  const r = await w.run(['auth', 'whoami', '--insecure-skip-verify']);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stderr.split('\n').filter(Boolean).length, 1);
  assert.match(r.stderr, 'warning: --insecure-skip-verify');
  w.dispose();
});

test.run();
