// Types of bin/run-bundle.js (plain JavaScript so that starting bbdc never needs the TypeScript stripper).
export const maxCachedCommands: number;
export function runBundle(
  bundle: string,
  cacheDir: string,
  command: string,
): { exports: Record<string, unknown>; cache: 'none' | 'accepted' | 'rejected'; save(): boolean };
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
