// Types of bin/start-up.js (plain JavaScript so that starting bbdc never needs the TypeScript stripper).
export function compileCacheDir(
  env: Readonly<Record<string, string | undefined>>,
  homeDir: string,
  platform: string,
): string;
export function cacheHome(): string | undefined;
export function enableCompileCache(dir?: string): string | undefined;
export function freshBundle(root: string, dir?: string, command?: string): string | undefined;
export const maxCachedCommands: number;
type CompileOptions = {
  source: string;
  filename: string;
  key: string;
  family?: string;
  cacheDir: string | undefined;
  command: string;
  fallback?: Buffer;
};
type Ran = { exports: unknown; cache: 'none' | 'accepted' | 'rejected'; save(): boolean };
export function runBundle(
  bundle: string,
  cacheDir: string | undefined,
  command: string,
  makeRequire?: () => (id: string) => unknown,
): Ran;
export function runScript(o: CompileOptions & { require: (id: string) => unknown; file?: string }): Ran;
export function saveAtExit(save: () => boolean, args: string[]): void;
export function bundleRequire(makeRequire: () => (id: string) => unknown): (id: string) => unknown;
export function compileCached(o: CompileOptions): {
  script: import('node:vm').Script;
  cache: 'none' | 'accepted' | 'rejected';
  save(): boolean;
};
export function commandWords(args: string[]): string;
export function commandOf(args: string[], isCommand: (command: string) => boolean): string;
export function listName(command: string): string;
export function requireNode(name: string): void;
