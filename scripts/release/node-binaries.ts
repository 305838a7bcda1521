// Node's own binaries for each target, from the npm registry packages node-<os>-<arch> (fetched with `npm pack`,
// cached under .cache/release/node).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { x as extract } from 'tar';
import { nodePackage, type Target } from './targets.ts';

/** A Node binary for a target: where it is and which package version it came from. */
export type NodeBinary = {
  target: Target;
  version: string;
  path: string;
  source: string;
  integrity?: string;
};

const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

const semverKey = (v: string) => v.split('.').map(Number);
const newer = (a: string, b: string) => {
  const [x, y] = [semverKey(a), semverKey(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return false;
};

/**
 * The Node version to build a target with: the host's when the registry has it, else the newest of the host's
 * major, else the newest of the nearest older major from 22 on (an LTS line rather than a newer Current), else
 * the newest newer one. Undefined when the registry has no Node 22+ (single-executable applications need it).
 */
export function chooseVersion(available: string[], hostVersion: string): string | undefined {
  const stable = available.filter((v) => /^\d+\.\d+\.\d+$/.test(v) && semverKey(v)[0] >= 22);
  if (stable.includes(hostVersion)) return hostVersion;
  const hostMajor = semverKey(hostVersion)[0];
  const newest = (list: string[]) =>
    list.reduce<string | undefined>((m, v) => (!m || newer(v, m) ? v : m), undefined);
  const sameMajor = newest(stable.filter((v) => semverKey(v)[0] === hostMajor));
  const older = newest(stable.filter((v) => semverKey(v)[0] < hostMajor));
  return sameMajor ?? older ?? newest(stable);
}

/** The versions of a node-<os>-<arch> package the registry has. */
export function registryVersions(target: Target, cwd: string): string[] {
  try {
    const out = JSON.parse(npm(['view', nodePackage(target), 'versions', '--json'], cwd));
    return Array.isArray(out) ? out : [out];
  } catch {
    return [];
  }
}

/** Fetches (or reuses from the cache) node-<os>-<arch>@version and returns the path of its node binary. */
export async function fetchNodeBinary(
  target: Target,
  version: string,
  cacheDir: string,
): Promise<NodeBinary> {
  const spec = `${nodePackage(target)}@${version}`;
  const dir = join(cacheDir, `${nodePackage(target)}-${version}`);
  const find = () => {
    for (const rel of ['bin/node', 'bin/node.exe', 'node.exe', 'bin/node.exe']) {
      if (existsSync(join(dir, 'package', rel))) return join(dir, 'package', rel);
    }
    return undefined;
  };
  let integrity: string | undefined;
  if (!find()) {
    mkdirSync(dir, { recursive: true });
    const packed = JSON.parse(npm(['pack', spec, '--json', '--pack-destination', dir], dir)) as {
      filename: string;
      integrity: string;
    }[];
    integrity = packed[0]?.integrity;
    await extract({ file: join(dir, packed[0].filename), cwd: dir });
  }
  const path = find();
  if (!path)
    throw new Error(`${spec} has no node binary (looked in ${readdirSync(join(dir, 'package')).join(', ')})`);
  return { target, version, path, source: `pkg:npm/${spec}`, integrity };
}
