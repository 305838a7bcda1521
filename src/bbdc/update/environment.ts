import { checkoutDir } from '../version.ts';
import type { FileOps } from './replace-executable.ts';
import type { UpdateTrust } from './trust.ts';
import type { StartDetached } from './windows-swap.ts';

/** What `bbdc update` needs from the world: the running executable, the platform, trust, files and processes. */
export type SelfUpdateEnv = {
  /** The executable to replace: the running binary of a standalone install. */
  executablePath: string;
  /** True inside a Node single-executable application; an npm install is updated by npm instead. */
  standalone: boolean;
  /** The git checkout bbdc runs from, when it runs from one: updated with git, never by downloading. */
  checkout?: string;
  platform: string;
  arch: string;
  pid: number;
  currentVersion: string;
  trust: UpdateTrust;
  files: FileOps;
  /** Runs an executable with arguments and collects its output; never throws for a non-zero exit. */
  runExecutable(path: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  startDetached: StartDetached;
};

/** The real environment: process.execPath, node:sea, Sigstore's public-good trust, node:fs and child_process. */
export async function processSelfUpdateEnv(options: {
  tufCacheDir: string;
  version: string;
}): Promise<SelfUpdateEnv> {
  const [{ isSea }, { execFile, spawn }, { nodeFileOps }, { publicGoodTrust }] = await Promise.all([
    import('node:sea'),
    import('node:child_process'),
    import('./replace-executable.ts'),
    import('./trust.ts'),
  ]);
  return {
    executablePath: process.execPath,
    standalone: isSea(),
    checkout: isSea() ? undefined : checkoutDir(),
    platform: process.platform,
    arch: process.arch,
    pid: process.pid,
    currentVersion: options.version,
    trust: publicGoodTrust(options.tufCacheDir),
    files: await nodeFileOps(),
    runExecutable: (path, args) =>
      new Promise((resolve) => {
        execFile(path, args, { timeout: 30_000, encoding: 'utf8' }, (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
          resolve({ code, stdout, stderr: stderr || (error?.message ?? '') });
        });
      }),
    startDetached: (command, args) =>
      new Promise((resolve, reject) => {
        const child = spawn(command, args, { detached: true, stdio: 'ignore', windowsHide: true });
        child.on('error', reject);
        child.on('spawn', () => {
          child.unref();
          resolve();
        });
      }),
  };
}
