import { join } from 'node:path';
import { systemClock } from '../core/clock.ts';
import { RealmforgeError } from '../core/errors.ts';
import { configDir } from './config/paths.ts';
import type { Deps, GitRunner, Keyring } from './deps.ts';
import { runPager } from './output/pager.ts';
import { terminalSize } from './output/ui.ts';
import { readVersion } from './version.ts';

// node:os and node:sea are loaded only when asked (here and in selfCommand), not at every start:
// os.homedir() is $HOME ($USERPROFILE on Windows) whenever that is set.
const homedir = () =>
  (process.platform === 'win32' ? process.env.USERPROFILE : process.env.HOME) ||
  process.getBuiltinModule('node:os').homedir();

// node:child_process is loaded by the first child process, not on every run.
const spawn: typeof import('node:child_process').spawn = ((
  ...args: Parameters<typeof import('node:child_process').spawn>
) => process.getBuiltinModule('node:child_process').spawn(...args)) as never;

const git: GitRunner = (args, cwd, options = {}) =>
  new Promise((resolve) => {
    const env =
      options.env &&
      (Object.fromEntries(
        Object.entries(options.env).filter(([, v]) => v !== undefined),
      ) as NodeJS.ProcessEnv);
    const child = spawn('git', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
      options.onStderr?.(String(d));
    });
    child.on('error', (e) => resolve({ code: 127, stdout, stderr: e.message }));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });

async function osKeyring(): Promise<Keyring | undefined> {
  try {
    const { AsyncEntry } = await import('@napi-rs/keyring');
    return {
      get: (service, account) => new AsyncEntry(service, account).getPassword().then((p) => p ?? null),
      set: (service, account, secret) => new AsyncEntry(service, account).setPassword(secret),
      delete: (service, account) => new AsyncEntry(service, account).deletePassword(),
    };
  } catch {
    return undefined;
  }
}

function openBrowser(url: string, env: NodeJS.ProcessEnv): Promise<void> {
  const [cmd, args] = env.BROWSER
    ? [env.BROWSER, [url]]
    : process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () =>
      reject(
        new RealmforgeError(
          'internal',
          `could not start a browser with ${cmd}; rerun with --no-browser to print the URL`,
        ),
      ),
    );
    child.on('spawn', () => {
      child.unref();
      resolve();
    });
  });
}

/**
 * A reader that stops early (`bbdc repo list | head`) closes the pipe, and the next write fails with EPIPE: bbdc
 * stops there quietly with 141 (128 + SIGPIPE, what a shell reports for git or gh killed by the signal, so a
 * pipefail script sees the same), instead of an unhandled 'error' event and its stack trace.
 */
function stopOnClosedPipe(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(141);
  });
  return stream;
}

/** The real world: process streams and env, git on PATH, the OS keyring, node:https and the system browser. */
export function defaultDeps(): Deps {
  return {
    env: process.env,
    cwd: process.cwd(),
    homeDir: homedir(),
    stdout: stopOnClosedPipe(process.stdout),
    stderr: process.stderr,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    // isatty(0), not process.stdin.isTTY: the first read of process.stdin opens a stream on fd 0, which for a file or
    // /dev/null loads Node's fs streams, fs/promises and readline. Asked, not read at start: loading node:tty is a
    // cost that a command whose stdout is not a terminal (a script, --json) never needs.
    stdinIsTTY: () => process.getBuiltinModule('node:tty').isatty(0),
    ...terminalSize(process.stdout, process.env),
    page: (command, text) => runPager(command, text, process.env),
    // Prompting, stdin and the editor load their modules (readline and friends) only when a command uses them.
    prompt: async (question, options) => (await import('./prompt.ts')).promptLine(question, options.secret),
    git,
    clock: systemClock,
    keyring: osKeyring,
    openBrowser: (url) => openBrowser(url, process.env),
    readStdin: async () => (await import('./editor.ts')).readAll(process.stdin),
    editText: async (initial, fileName) =>
      (await import('./editor.ts')).editText(initial, fileName, process.env),
    http: async (options) => (await import('./api/transport.ts')).createHttpTransport(options),
    selfUpdate: async () =>
      (await import('./update/environment.ts')).processSelfUpdateEnv({
        tufCacheDir: join(configDir(process.env, homedir()), 'sigstore-tuf'),
        version: readVersion(),
      }),
  };
}
