// Types of bin/start-up.js (plain JavaScript so that starting bbdc never needs the TypeScript stripper).
export function compileCacheDir(
  env: Readonly<Record<string, string | undefined>>,
  homeDir: string,
  platform: string,
): string;
export function cacheHome(): string | undefined;
export function enableCompileCache(dir?: string): string | undefined;
export function freshBundle(root: string, dir?: string, group?: string, command?: string): string | undefined;
export const maxCachedCommands: number;
export function runBundle(
  bundle: string,
  cacheDir: string,
  command: string,
  makeRequire?: () => (id: string) => unknown,
): { exports: Record<string, unknown>; cache: 'none' | 'accepted' | 'rejected'; save(): boolean };
export function bundleRequire(makeRequire: () => (id: string) => unknown): (id: string) => unknown;
export function compileCached(o: {
  source: string;
  filename: string;
  key: string;
  family?: string;
  cacheDir: string;
  command: string;
  fallback?: Buffer;
}): { script: import('node:vm').Script; cache: 'none' | 'accepted' | 'rejected'; save(): boolean };
export function commandWords(args: string[]): string;
export function requireNode(name: string): void;
