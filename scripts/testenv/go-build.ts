// Builds main packages of a Go module at a pinned version into the cache: "module M at version V, package P".
// The wrapper go.mod is generated here from versions.ts, so no other file pins a version.
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { MissingToolError } from './errors.ts';
import { cacheDir, repoRoot } from './paths.ts';
import { alive, run } from './proc.ts';
import type { GoComponent } from './versions.ts';

/** The directory holding the built binaries of a component at its version. */
export function goBinDir(c: GoComponent): string {
  return join(cacheDir(), 'bin', `${c.name}-${c.version}`);
}

/** The binary path for each package of a component, keyed by binary name. */
export function goBinaries(c: GoComponent): Record<string, string> {
  return Object.fromEntries(c.packages.map((p) => [binaryName(c, p), join(goBinDir(c), binaryName(c, p))]));
}

function binaryName(c: GoComponent, pkg: string): string {
  return c.wrapperDir && pkg.startsWith('realmforge.dev/') ? c.name : basename(pkg);
}

/** The environment for every go command: local toolchain only, module mode, no VCS stamping. */
function goEnv(): NodeJS.ProcessEnv {
  return { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod -buildvcs=false', CGO_ENABLED: '0' };
}

/** Checks that Go is installed and recent enough, or says what to install. */
export async function requireGo(why: string): Promise<void> {
  const version = await run('go', ['env', 'GOVERSION']).catch(() => '');
  const m = /go(\d+)\.(\d+)/.exec(version);
  if (!m || Number(m[1]) * 100 + Number(m[2]) < 126) {
    throw new MissingToolError(
      `Go 1.26 or newer is needed to build ${why} (found: ${version.trim() || 'no go on PATH'}). ` +
        'Install it from the Go downloads page (or `apt-get install golang-1.26`), or point KUBEBUILDER_ASSETS ' +
        '(or TEST_ASSET_ETCD, TEST_ASSET_KUBE_APISERVER) at prebuilt binaries, such as those from setup-envtest.',
    );
  }
}

/** The generated wrapper go.mod: requires the module, pins staging modules, declares tool packages. */
async function wrapperGoMod(c: GoComponent): Promise<string> {
  const lines = [
    `module realmforge.dev/testenv/${c.name}`,
    '',
    'go 1.26',
    '',
    `require ${c.module} ${c.version}`,
  ];
  if (c.stagingVersion) {
    const info = JSON.parse(
      await run('go', ['mod', 'download', '-json', `${c.module}@${c.version}`], { env: goEnv() }),
    );
    const upstream = readFileSync(info.GoMod, 'utf8');
    const staging = [...upstream.matchAll(/^\s*(k8s\.io\/[\w./-]+)\s+=>\s+\.\/staging\//gm)].map((m) => m[1]);
    lines.push('', 'replace (', ...staging.sort().map((m) => `\t${m} => ${m} ${c.stagingVersion}`), ')');
  }
  const tools = c.packages.filter((p) => !p.startsWith('realmforge.dev/'));
  if (tools.length) lines.push('', 'tool (', ...tools.map((p) => `\t${p}`), ')');
  return `${lines.join('\n')}\n`;
}

/** Builds a component unless its binaries are cached; returns the binaries by name. */
export async function goBuild(c: GoComponent, log: (line: string) => void): Promise<Record<string, string>> {
  const bins = goBinaries(c);
  if (Object.values(bins).every((b) => existsSync(b))) return bins;
  await requireGo(`${c.name} ${c.version}`);
  const started = Date.now();
  const src = join(cacheDir(), 'go-src', `${c.name}-${c.version}`);
  rmSync(src, { recursive: true, force: true });
  mkdirSync(src, { recursive: true });
  if (c.wrapperDir) cpSync(join(repoRoot, 'testenv', c.wrapperDir), src, { recursive: true });
  log(
    `building ${c.name} ${c.version} (${c.packages.length} binaries; a cold Kubernetes build takes 4-8 min on 2 cores)`,
  );
  writeFileSync(join(src, 'go.mod'), await wrapperGoMod(c));
  const logFile = join(src, 'build.log');
  await run('go', ['mod', 'tidy'], { cwd: src, env: goEnv(), logFile });
  const tmp = `${goBinDir(c)}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  for (const pkg of c.packages) {
    const out = join(tmp, binaryName(c, pkg));
    const ldflags = ['-s', '-w', ...(c.ldflags ?? [])].join(' ');
    const tags = c.tags?.length ? [`-tags=${c.tags.join(',')}`] : [];
    await run('go', ['build', '-trimpath', '-p', '2', ...tags, `-ldflags=${ldflags}`, '-o', out, pkg], {
      cwd: src,
      env: goEnv(),
      logFile,
    });
    log(`  built ${basename(out)} (${Math.round((Date.now() - started) / 1000)} s so far)`);
  }
  rmSync(goBinDir(c), { recursive: true, force: true });
  renameSync(tmp, goBinDir(c));
  return bins;
}

/** The pid that holds a lock directory, or 0 while it is being written. */
function lockOwner(lock: string): number {
  try {
    return Number(readFileSync(join(lock, 'pid'), 'utf8').trim()) || 0;
  } catch {
    return 0;
  }
}

/**
 * goBuild for tools that test suites build on first use (helm, prometheus): suites run in parallel, so one
 * process builds under a lock directory and the others wait for it; `needed` names the binary that must exist.
 */
export async function lockedGoBuild(
  c: GoComponent,
  needed: string,
  log: (line: string) => void,
): Promise<Record<string, string>> {
  const bins = goBinaries(c);
  const bin = bins[needed];
  if (!bin)
    throw new Error(`the ${c.name} component in scripts/testenv/versions.ts builds no binary ${needed}`);
  if (existsSync(bin)) return bins;
  const lock = join(cacheDir(), 'locks', `${c.name}-${c.version}`);
  mkdirSync(join(cacheDir(), 'locks'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const owner = lockOwner(lock);
      if (owner && !alive(owner)) rmSync(lock, { recursive: true, force: true });
      else await sleep(1000);
      if (existsSync(bin)) return bins;
    }
  }
  try {
    writeFileSync(join(lock, 'pid'), String(process.pid));
    return await goBuild(c, log);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
