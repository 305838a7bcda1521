// Types of bin/start-up.js (plain JavaScript so that starting bbdc never needs the TypeScript stripper).
export function compileCacheDir(
  env: Readonly<Record<string, string | undefined>>,
  homeDir: string,
  platform: string,
): string;
export function enableCompileCache(): string | undefined;
export function freshBundle(root: string, dir?: string, group?: string, command?: string): string | undefined;
