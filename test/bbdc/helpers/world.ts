// A test world for bbdc: a temp config dir, captured output, a recording clock, and the real command tree.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { runCli } from '../../../src/bbdc/cli/run.ts';
import { defaultDeps } from '../../../src/bbdc/default-deps.ts';
import type { Deps, Keyring } from '../../../src/bbdc/deps.ts';
import type { RegistryEntry } from '../../../src/bbdc/registry.ts';

/** What one bbdc run produced. */
export type RunResult = { code: number; stdout: string; stderr: string; bytes: Buffer; json: () => any };

/** Options for a world: extra env, cwd, terminal flags, keyring, prompt answers. */
export type WorldOptions = {
  env?: Record<string, string | undefined>;
  cwd?: string;
  tty?: boolean;
  stdinTTY?: boolean;
  /** Whether stderr is a terminal (default: as `tty`). */
  stderrTTY?: boolean;
  keyring?: Keyring;
  prompts?: string[];
  columns?: number;
  /** Terminal rows (default 24): longer output goes to the pager, when one is configured. */
  rows?: number;
  /** Text piped into stdin. */
  stdin?: string;
  /** Stands in for the user's editor: gets the initial text, returns the saved text. */
  editor?: (initial: string) => string;
};

/** An in-memory keyring, like the OS one but inspectable. */
export function memoryKeyring(): Keyring & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    get: async (s, a) => items.get(`${s}/${a}`) ?? null,
    set: async (s, a, v) => {
      items.set(`${s}/${a}`, v);
    },
    delete: async (s, a) => items.delete(`${s}/${a}`),
  };
}

/** A keyring whose service is missing, as on headless Linux. */
export const missingKeyring: Keyring = {
  get: async () => {
    throw new Error('Platform secure storage failure: no Secret Service');
  },
  set: async () => {
    throw new Error('Platform secure storage failure: no Secret Service');
  },
  delete: async () => false,
};

/** Builds a world; call `run(argv)` as often as needed and `dispose()` at the end. */
export function createWorld(options: WorldOptions = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'bbdc-test-'));
  const configDir = join(dir, 'config');
  const sleeps: number[] = [];
  const opened: string[] = [];
  const prompts = [...(options.prompts ?? [])];
  const asked: string[] = [];
  const paged: { command: string; text: string }[] = [];
  let now = 1_700_000_000_000;
  const world = {
    dir,
    configDir,
    sleeps,
    opened,
    asked,
    paged,
    env: { PATH: process.env.PATH, HOME: dir, BBDC_CONFIG_DIR: configDir, ...options.env } as Record<
      string,
      string | undefined
    >,
    cwd: options.cwd ?? dir,
    async run(
      argv: string[],
      extra: {
        env?: Record<string, string | undefined>;
        cwd?: string;
        registry?: RegistryEntry[];
        deps?: Partial<Deps>;
      } = {},
    ): Promise<RunResult> {
      const chunks: Buffer[] = [];
      let stderr = '';
      const base = defaultDeps();
      const deps: Deps = {
        ...base,
        env: { ...world.env, ...extra.env },
        cwd: extra.cwd ?? world.cwd,
        homeDir: dir,
        stdout: { write: (t: string | Uint8Array) => chunks.push(Buffer.from(t)) },
        stderr: { write: (t: string) => (stderr += t) },
        stdoutIsTTY: options.tty ?? false,
        stderrIsTTY: options.stderrTTY ?? options.tty ?? false,
        stdinIsTTY: () => options.stdinTTY ?? false,
        columns: options.columns ?? 80,
        rows: options.rows ?? 24,
        page: async (command, text) => {
          paged.push({ command, text: text.toString('utf8') });
        },
        prompt: async (q) => {
          asked.push(q);
          return prompts.shift() ?? '';
        },
        // Waits take no time: a timer moves the clock to its end and fires at once.
        clock: {
          now: () => now,
          monotonic: () => now,
          setTimer: (ms, fire) => {
            sleeps.push(ms);
            now += ms;
            queueMicrotask(fire);
            return { cancel: () => {} };
          },
        },
        keyring: async () => options.keyring,
        openBrowser: async (url) => {
          opened.push(url);
        },
        ...extra.deps,
        readStdin: async () => options.stdin ?? '',
        editText: async (initial) => {
          if (!options.editor) throw new Error('this test world has no editor');
          return options.editor(initial);
        },
      };
      const code = await runCli(argv, deps, extra.registry);
      const bytes = Buffer.concat(chunks);
      const stdout = bytes.toString('utf8');
      return { code, stdout, stderr, bytes, json: () => JSON.parse(stdout) };
    },
    dispose() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return world;
}

/** Runs git in a directory, failing the test on error. */
export function git(cwd: string, ...args: string[]): string {
  const res = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${res.stderr}`);
  return res.stdout;
}

/** Creates a git repository under the world's dir with the given remotes. */
export function repoWithRemotes(root: string, name: string, remotes: Record<string, string>): string {
  const path = join(root, name);
  spawnSync('mkdir', ['-p', path]);
  git(path, 'init', '-q');
  for (const [remote, url] of Object.entries(remotes)) git(path, 'remote', 'add', remote, url);
  return path;
}

/** A directory with `bbdc` in it, as an installation puts one on PATH: this checkout's bin run by this node. */
export function bbdcOnPath(dir: string): string {
  const bin = join(dir, 'on-path');
  mkdirSync(bin);
  const script = join(import.meta.dirname, '..', '..', '..', 'bin', 'bbdc.js');
  writeFileSync(join(bin, 'bbdc'), `#!/bin/sh\nexec '${process.execPath}' '${script}' "$@"\n`, {
    mode: 0o755,
  });
  return `${bin}${delimiter}${process.env.PATH}`;
}
