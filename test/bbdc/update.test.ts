import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TrustedRoot } from '@sigstore/protobuf-specs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseChecksums } from '../../src/bbdc/update/checksums.ts';
import type { SelfUpdateEnv } from '../../src/bbdc/update/environment.ts';
import { nodeFileOps } from '../../src/bbdc/update/replace-executable.ts';
import { releaseWorkflowSigner } from '../../src/bbdc/update/trust.ts';
import { swapScript } from '../../src/bbdc/update/windows-swap.ts';
import { createAjv, formatSchemaErrors } from '../../src/core/schema.ts';
import { startConnectProxy } from './helpers/connect-proxy.ts';
import { startReleaseServer, tarGz } from './helpers/release-server.ts';
import { createLocalSigstore, type SignerIdentity } from './helpers/sigstore-fixture.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc update');
const outputSchema = createAjv().compile(
  JSON.parse(readFileSync(join(import.meta.dirname, '../../schemas/cli/output/update.schema.json'), 'utf8')),
);
const GITHUB_ISSUER = 'https://token.actions.githubusercontent.com';
const releaseSigner = (version: string): SignerIdentity => ({
  san: `https://github.com/realmforge/realmforge/.github/workflows/release.yml@refs/tags/v${version}`,
  issuer: GITHUB_ISSUER,
});
const script = (version: string, code = 0) => `#!/bin/sh\necho "bbdc ${version}"\nexit ${code}\n`;
const OLD = script('1.2.0');

let sigstore: Awaited<ReturnType<typeof createLocalSigstore>>;
let server: Awaited<ReturnType<typeof startReleaseServer>>;
test.before(async () => {
  sigstore = await createLocalSigstore();
  server = await startReleaseServer();
});
test.after(async () => {
  await server.stop();
});

type Release = { version: string; executable?: string; signer?: SignerIdentity; legacy?: boolean };

/** Publishes a release on the local server; returns its parts so a test can tamper with one. */
async function publish({
  version,
  executable = script(version),
  signer = releaseSigner(version),
  legacy,
}: Release) {
  server.files.clear();
  server.requests.length = 0;
  const archive = await tarGz('bbdc', executable);
  const winArchive = await tarGz('bbdc.exe', executable);
  const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
  const sums = `${'0'.repeat(64)}  bbdc-darwin-arm64.tar.gz\n${sha(archive)}  bbdc-linux-x64.tar.gz\n${sha(winArchive)}  bbdc-win-x64.tar.gz\n`;
  const signed = await sigstore.signBlob(Buffer.from(sums), signer);
  server.files.set(
    '/releases/latest/download/release.json',
    Buffer.from(JSON.stringify({ name: 'bbdc', version })),
  );
  server.put(version, 'bbdc-linux-x64.tar.gz', archive);
  server.put(version, 'bbdc-win-x64.tar.gz', winArchive);
  server.put(version, 'sha256sums.txt', sums);
  server.put(
    version,
    'sha256sums.txt.sigstore.json',
    JSON.stringify(legacy ? signed.legacyBundle : signed.bundle),
  );
  return { archive, sums };
}

/** A world with an installed bbdc 1.2.0 executable and the local trust root injected. */
async function installed(overrides: Partial<SelfUpdateEnv> = {}) {
  const w = createWorld({ env: { BBDC_RELEASE_URL: server.url } });
  const exe = join(w.dir, 'bin', 'bbdc');
  mkdirSync(join(w.dir, 'bin'));
  writeFileSync(exe, OLD, { mode: 0o755 });
  const started: string[][] = [];
  const env: SelfUpdateEnv = {
    executablePath: exe,
    standalone: true,
    platform: 'linux',
    arch: 'x64',
    pid: 4242,
    currentVersion: '1.2.0',
    trust: {
      trustedRoot: async () => TrustedRoot.fromJSON(sigstore.trustedRoot),
      signer: releaseWorkflowSigner,
    },
    files: await nodeFileOps(),
    runExecutable: async (path, args) => {
      const { spawnSync } = await import('node:child_process');
      const r = spawnSync(path, args, { encoding: 'utf8' });
      return { code: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
    },
    startDetached: async (command, args) => {
      started.push([command, ...args]);
    },
    ...overrides,
  };
  const run = (...argv: string[]) => w.run(['update', ...argv], { deps: { selfUpdate: async () => env } });
  const binDir = () => readdirSync(join(w.dir, 'bin')).sort();
  return { w, exe, env, run, started, binDir };
}

const archiveRequests = () => server.requests.filter((p) => p.endsWith('.tar.gz'));

test('a newer signed release replaces the executable atomically and says who signed it', async () => {
  await publish({ version: '1.3.0' });
  const { w, exe, run, binDir } = await installed();
  const r = await run('--json');
  assert.is(r.code, 0, r.stderr + r.stdout);
  const data = r.json().data;
  assert.is(data.status, 'updated');
  assert.equal([data.currentVersion, data.latestVersion, data.executable], ['1.2.0', '1.3.0', exe]);
  assert.is(data.signer.identity, releaseSigner('1.3.0').san);
  assert.equal([data.signer.issuer, data.signer.format], [GITHUB_ISSUER, 'sigstore']);
  assert.is(data.archive, `${server.url}/download/v1.3.0/bbdc-linux-x64.tar.gz`);
  assert.is(readFileSync(exe, 'utf8'), script('1.3.0'));
  assert.equal(binDir(), ['bbdc'], 'no .new or .old file is left behind');
  assert.ok(outputSchema(data), formatSchemaErrors(outputSchema.errors).join('; '));
  const human = await run();
  assert.match(human.stdout, 'Updated bbdc 1.2.0 to 1.3.0 (signed by https://github.com/realmforge');
  w.dispose();
});

test('a legacy cosign bundle is accepted and verified the same way', async () => {
  await publish({ version: '1.3.0', legacy: true });
  const { w, exe, run } = await installed();
  const r = await run('--json');
  assert.is(r.code, 0, r.stdout);
  assert.is(r.json().data.signer.format, 'legacy-cosign');
  assert.is(readFileSync(exe, 'utf8'), script('1.3.0'));
  w.dispose();
});

test('the same or an older release is up to date: only release.json is read', async () => {
  for (const version of ['1.2.0', '1.1.9']) {
    await publish({ version });
    const { w, exe, run } = await installed();
    const r = await run('--json');
    assert.is(r.code, 0);
    assert.equal(r.json().data, {
      currentVersion: '1.2.0',
      latestVersion: version,
      executable: exe,
      status: 'up-to-date',
    });
    assert.equal(server.requests, ['/releases/latest/download/release.json']);
    assert.is(readFileSync(exe, 'utf8'), OLD);
    w.dispose();
  }
});

/** Runs an update that must be refused; returns the error and checks nothing changed. */
async function refused(expectedCode: number) {
  const { w, exe, run, binDir } = await installed();
  const r = await run('--json');
  assert.is(r.code, expectedCode, r.stdout);
  assert.is(readFileSync(exe, 'utf8'), OLD, 'the installed executable is untouched');
  assert.equal(binDir(), ['bbdc'], 'nothing was written beside it');
  const human = await run();
  assert.not.match(human.stderr, '    at ', 'no stack trace');
  w.dispose();
  return r.json().error;
}

test('update reads releases through HTTP_PROXY like every other request', async () => {
  await publish({ version: '1.2.0' });
  const proxy = await startConnectProxy();
  const { w, env } = await installed();
  try {
    const r = await w.run(['update', '--json'], {
      env: { HTTP_PROXY: proxy.url },
      deps: { selfUpdate: async () => env },
    });
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.equal(proxy.seen, [`GET ${server.url}/latest/download/release.json`]);
  } finally {
    w.dispose();
    await proxy.close();
  }
});

test('a tampered archive is refused by its checksum', async () => {
  const { archive } = await publish({ version: '1.3.0' });
  const evil = Buffer.from(archive);
  evil[evil.length - 20] ^= 1;
  server.put('1.3.0', 'bbdc-linux-x64.tar.gz', evil);
  const error = await refused(2);
  assert.match(error.message, 'bbdc-linux-x64.tar.gz does not match its checksum');
  assert.match(error.message, 'nothing was changed');
});

test('a tampered checksum file is refused by the signature', async () => {
  const { sums } = await publish({ version: '1.3.0' });
  const evilSha = createHash('sha256').update('evil').digest('hex');
  server.put('1.3.0', 'sha256sums.txt', sums.replace(/^[0-9a-f]{64}(?= {2}bbdc-linux)/m, evilSha));
  const error = await refused(2);
  assert.match(error.message, 'sha256sums.txt.sigstore.json does not verify');
  assert.match(error.message, 'refusing to update, nothing was changed');
  assert.is(archiveRequests().length, 0, 'the archive is never downloaded');
});

test('a signature by another identity or issuer is refused, naming the expected signer', async () => {
  await publish({
    version: '1.3.0',
    signer: {
      san: 'https://github.com/someone/fork/.github/workflows/release.yml@refs/tags/v1.3.0',
      issuer: GITHUB_ISSUER,
    },
  });
  const fork = await refused(2);
  assert.match(fork.message, 'signed by an unexpected identity');
  assert.match(
    fork.message,
    'expected https://github.com/realmforge/realmforge/.github/workflows/release.yml@refs/tags/v1.3.0',
  );
  await publish({ version: '1.3.0', signer: releaseSigner('1.2.9') });
  assert.match((await refused(2)).message, 'unexpected identity', 'a signature for another tag does not do');
  await publish({
    version: '1.3.0',
    signer: { ...releaseSigner('1.3.0'), issuer: 'https://accounts.example.com' },
  });
  assert.match((await refused(2)).message, 'issuer=https://accounts.example.com');
});

test('a bundle from a CA outside the trusted root is refused', async () => {
  const other = await createLocalSigstore();
  const { sums } = await publish({ version: '1.3.0' });
  const foreign = await other.signBlob(Buffer.from(sums), releaseSigner('1.3.0'));
  server.put('1.3.0', 'sha256sums.txt.sigstore.json', JSON.stringify(foreign.bundle));
  assert.match((await refused(2)).message, 'does not verify');
});

test('a release without a signature bundle is refused', async () => {
  await publish({ version: '1.3.0' });
  server.files.delete('/releases/download/v1.3.0/sha256sums.txt.sigstore.json');
  const error = await refused(2);
  assert.match(error.message, 'the signature bundle sha256sums.txt.sigstore.json of v1.3.0');
  assert.match(error.message, '404; refusing to update');
  assert.is(archiveRequests().length, 0);
});

test('a new executable that does not start is rolled back', async () => {
  await publish({ version: '1.3.0', executable: script('1.3.0', 1) });
  const { w, exe, run, binDir } = await installed();
  const r = await run('--json');
  assert.is(r.code, 1);
  assert.match(r.json().error.message, 'the new executable did not start');
  assert.match(r.json().error.message, 'the previous executable was restored');
  assert.is(readFileSync(exe, 'utf8'), OLD);
  assert.equal(binDir(), ['bbdc']);
  w.dispose();
});

test('a failure while swapping the files rolls back to the old executable', async () => {
  await publish({ version: '1.3.0' });
  const real = await nodeFileOps();
  let renames = 0;
  const files = {
    ...real,
    rename: async (from: string, to: string) => {
      renames++;
      if (renames === 1) {
        await real.rename(from, to);
        throw new Error('EIO: disk went away after the rename');
      }
      return real.rename(from, to);
    },
  };
  const { w, exe, run, binDir } = await installed({ files });
  const r = await run('--json');
  assert.is(r.code, 1);
  assert.match(r.json().error.message, 'swapping in the new executable failed: EIO');
  assert.is(readFileSync(exe, 'utf8'), OLD);
  assert.equal(binDir(), ['bbdc']);
  w.dispose();
});

test('a failure writing the new file leaves the old one untouched', async () => {
  await publish({ version: '1.3.0' });
  const real = await nodeFileOps();
  const files = {
    ...real,
    writeDurable: async () => {
      throw new Error('ENOSPC: no space left on device');
    },
  };
  const { w, exe, run, binDir } = await installed({ files });
  const r = await run('--json');
  assert.match(r.json().error.message, 'writing the new executable beside it failed: ENOSPC');
  assert.match(r.json().error.message, 'it was not changed');
  assert.is(readFileSync(exe, 'utf8'), OLD);
  assert.equal(binDir(), ['bbdc']);
  w.dispose();
});

// Linux maps a file written in one large write() as large page-cache folios, whole, into every process that runs
// it; an executable the update wrote 512 KB at a time started about 20 MB larger in peak RSS. Here Node's own binary,
// written by the update's file operations, must start no larger than Node does.
test('the installed executable starts as small as the same binary installed by a package manager', async () => {
  if (process.platform !== 'linux') return;
  const { spawnSync } = await import('node:child_process');
  const dir = mkdtempSync(join(tmpdir(), 'bbdc-update-rss-'));
  try {
    const copy = join(dir, 'node');
    await (await nodeFileOps()).writeDurable(copy, readFileSync(process.execPath), 0o755);
    const peak = (exe: string) => {
      const r = spawnSync(
        exe,
        ['-p', "/VmHWM:\\s*(\\d+)/.exec(require('fs').readFileSync('/proc/self/status', 'utf8'))[1]"],
        { encoding: 'utf8' },
      );
      return Number(r.stdout) / 1024;
    };
    const [installed, node] = [
      Math.min(peak(copy), peak(copy)),
      Math.min(peak(process.execPath), peak(process.execPath)),
    ];
    assert.ok(
      installed > 20 && installed < node + 4,
      `installed ${installed.toFixed(1)} MB, node ${node.toFixed(1)} MB`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--dry-run verifies the signature and reports the plan without downloading the archive', async () => {
  await publish({ version: '1.3.0' });
  const { w, exe, run, binDir } = await installed();
  const r = await run('--dry-run', '--json');
  assert.is(r.code, 0, r.stdout);
  const plan = r.json().data;
  assert.is(plan.predictedAction, 'update');
  assert.equal(plan.target, { type: 'executable', id: exe });
  assert.is(plan.action.path, `${server.url}/download/v1.3.0/bbdc-linux-x64.tar.gz`);
  assert.match(plan.reasons.join('\n'), 'installed: 1.2.0; latest release: 1.3.0');
  assert.match(plan.reasons.join('\n'), `signed by ${releaseSigner('1.3.0').san}`);
  assert.equal(plan.blockingReasons, []);
  assert.is(archiveRequests().length, 0);
  assert.is(readFileSync(exe, 'utf8'), OLD);
  assert.equal(binDir(), ['bbdc']);
  const human = await run('--dry-run');
  assert.match(human.stdout, `Dry run: would replace ${exe} with bbdc 1.3.0`);
  server.files.delete('/releases/download/v1.3.0/sha256sums.txt.sigstore.json');
  const bad = await run('--dry-run', '--json');
  assert.is(bad.code, 2, 'a dry run refuses an unsigned release too');
  w.dispose();
});

test('on Windows the new executable is staged and swapped in by a script after bbdc exits', async () => {
  await publish({ version: '1.3.0' });
  const { w, exe, run, started, binDir } = await installed({ platform: 'win32' });
  const r = await run('--json');
  assert.is(r.code, 0, r.stdout);
  assert.is(r.json().data.status, 'staged');
  assert.ok(outputSchema(r.json().data));
  assert.is(readFileSync(exe, 'utf8'), OLD, 'the running executable is not touched');
  assert.is(readFileSync(`${exe}.new`, 'utf8'), script('1.3.0'));
  assert.equal(binDir(), ['bbdc', 'bbdc.new', 'bbdc.update.cmd']);
  assert.equal(started, [['cmd.exe', '/d', '/c', `${exe}.update.cmd`]]);
  assert.is(readFileSync(`${exe}.update.cmd`, 'utf8'), swapScript(exe, 4242));
  assert.ok(server.requests.includes('/releases/download/v1.3.0/bbdc-win-x64.tar.gz'));
  w.dispose();
});

test('the swap script waits for the process, keeps the old file until the move, and restores it on failure', () => {
  const text = swapScript('C:\\Tools\\bbdc.exe', 77);
  const lines = text.split('\r\n');
  assert.match(lines[3], 'tasklist /FI "PID eq 77"');
  assert.match(lines[3], 'goto wait');
  assert.is(lines[4], 'move /Y "C:\\Tools\\bbdc.exe" "C:\\Tools\\bbdc.exe.old" >NUL || exit /b 1');
  assert.is(
    lines[5],
    'move /Y "C:\\Tools\\bbdc.exe.new" "C:\\Tools\\bbdc.exe" >NUL || (move /Y "C:\\Tools\\bbdc.exe.old" "C:\\Tools\\bbdc.exe" >NUL & exit /b 1)',
  );
});

test('an npm installation is told to update with npm, and changes nothing', async () => {
  await publish({ version: '1.3.0' });
  const { w, exe, run } = await installed({ standalone: false });
  const r = await run('--json');
  assert.is(r.code, 2);
  assert.match(r.json().error.message, 'npm install -g @realmforge/bbdc@1.3.0');
  assert.is(readFileSync(exe, 'utf8'), OLD);
  assert.is(archiveRequests().length, 0);
  w.dispose();
});

test('a git checkout is told to update with git pull, and nothing is downloaded', async () => {
  await publish({ version: '1.3.0' });
  const { w, exe, run } = await installed({ standalone: false, checkout: '/src/realmforge' });
  const before = server.requests.length;
  for (const argv of [['--json'], ['--dry-run', '--json']]) {
    const r = await run(...argv);
    assert.is(r.code, 2);
    assert.match(r.json().error.message, 'bbdc runs from a git checkout (/src/realmforge)');
    assert.match(r.json().error.message, '`git -C /src/realmforge pull`');
  }
  assert.equal([server.requests.length - before, readFileSync(exe, 'utf8')], [0, OLD]);
  // The real environment finds this very checkout: the tests run bbdc from its sources.
  const real = await w.run(['update', '--json']);
  assert.match(real.json().error.message, `git -C ${join(import.meta.dirname, '..', '..')} pull`);
  assert.is(server.requests.length - before, 0);
  w.dispose();
});

test('bad release sources and platforms give clear errors', async () => {
  await publish({ version: '1.3.0' });
  const { w, run, env } = await installed({ platform: 'freebsd' });
  const r = await run('--json');
  assert.is(r.code, 11);
  assert.match(
    r.json().error.message,
    'no executable for freebsd-x64; install with npm instead (npm install -g @realmforge/bbdc)',
  );
  const bad = await w.run(['update', '--json'], {
    env: { BBDC_RELEASE_URL: 'ftp://x' },
    deps: { selfUpdate: async () => env },
  });
  assert.match(bad.json().error.message, 'BBDC_RELEASE_URL must be an http(s) URL');
  server.files.set(
    '/releases/latest/download/release.json',
    Buffer.from('{"name":"other","version":"2.0.0"}'),
  );
  const other = await run('--json');
  assert.match(other.json().error.message, 'does not describe a bbdc release');
  w.dispose();
});

test('sha256sums.txt lines parse in both text and binary mode', () => {
  const a = 'a'.repeat(64);
  const b = 'B'.repeat(64);
  assert.equal(
    [...parseChecksums(`${a}  bbdc-linux-x64.tar.gz\n${b} *bbdc-win-x64.tar.gz\nnot a line\n`)],
    [
      ['bbdc-linux-x64.tar.gz', a],
      ['bbdc-win-x64.tar.gz', 'b'.repeat(64)],
    ],
  );
});

test.run();
