import type { Clock } from '../core/clock.ts';
import type { Transport, TransportOptions } from './api/transport-types.ts';
import type { SelfUpdateEnv } from './update/environment.ts';

/** Where output goes (the process's stdout/stderr or a test's buffer); `once('drain')` (a stream's) lets long
 * output wait instead of piling up in memory. */
export type Writer = {
  write(chunk: string | Uint8Array): unknown;
  once?(event: 'drain', listener: () => void): unknown;
};

/** An OS credential store; `set` throws when no keyring service is running. */
export interface Keyring {
  get(service: string, account: string): Promise<string | null>;
  set(service: string, account: string, secret: string): Promise<void>;
  delete(service: string, account: string): Promise<boolean>;
}

/**
 * Runs `git` with arguments in a directory, stdin closed; never throws for a non-zero exit, and answers code 127
 * when git cannot be started (not installed). `env`, when given, is git's whole environment; `onStderr` also gets
 * git's stderr as it comes (progress), besides the collected text.
 */
export type GitRunner = (
  args: string[],
  cwd: string,
  options?: { env?: Readonly<Record<string, string | undefined>>; onStderr?: (text: string) => void },
) => Promise<{ code: number; stdout: string; stderr: string }>;

/** Everything bbdc reads from or does to the world, built once in the entry point and passed down. */
export interface Deps {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  homeDir: string;
  stdout: Writer;
  stderr: Writer;
  stdoutIsTTY: boolean;
  /** Whether stderr is a terminal: someone is watching, so waits (retries) are announced there. */
  stderrIsTTY: boolean;
  /** Whether stdin is a terminal: asked when a command needs it (the check loads node:tty). */
  stdinIsTTY(): boolean;
  /** Columns of the terminal when stdout is one. */
  columns: number;
  /** Rows of the terminal when stdout is one: output longer than this is paged. */
  rows: number;
  /** Runs a pager command (through the shell) with `text` on its stdin; resolves when the user quits it. */
  page(command: string, text: Buffer): Promise<void>;
  prompt(question: string, options: { secret: boolean }): Promise<string>;
  git: GitRunner;
  clock: Clock;
  /** The OS keyring, or undefined when this platform has none. */
  keyring(): Promise<Keyring | undefined>;
  openBrowser(url: string): Promise<void>;
  /** Reads all of stdin as text (for text piped into a command). */
  readStdin(): Promise<string>;
  /** Opens the user's editor ($VISUAL, $EDITOR, else vi) on `initial` and returns the saved text. */
  editText(initial: string, fileName: string): Promise<string>;
  /** Creates the HTTP transport; loaded lazily, when a command makes its first request. */
  http(options: TransportOptions): Promise<Transport>;
  /** The running executable, trust and file operations `bbdc update` uses; loaded only by that command. */
  selfUpdate(): Promise<SelfUpdateEnv>;
}
