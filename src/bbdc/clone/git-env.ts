import { UsageError } from '../../core/errors.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** Seconds an ssh attempt may take to connect and finish its handshake before bbdc moves on. */
export const defaultSshConnectTimeout = 5;

/** The ssh connect timeout: BBDC_SSH_CONNECT_TIMEOUT (whole seconds) or 5. */
export function sshConnectTimeout(env: Env): number {
  const raw = env.BBDC_SSH_CONNECT_TIMEOUT;
  if (raw === undefined || raw === '') return defaultSshConnectTimeout;
  const seconds = Number(raw);
  if (!Number.isInteger(seconds) || seconds < 1) {
    throw new UsageError(`BBDC_SSH_CONNECT_TIMEOUT "${raw}" must be a whole number of seconds, e.g. 5`);
  }
  return seconds;
}

const quote = (word: string) => (/^[\w./:@%+=-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/**
 * Environment for an ssh attempt that fails fast instead of asking: the user's own ssh command (GIT_SSH_COMMAND,
 * GIT_SSH or `ssh`) with BatchMode=yes (no passphrase, password or host-key question) and a short ConnectTimeout.
 */
export function sshAttemptEnv(env: Env, timeoutSeconds: number): Record<string, string> {
  const base = env.GIT_SSH_COMMAND || (env.GIT_SSH ? quote(env.GIT_SSH) : 'ssh');
  return {
    GIT_SSH_COMMAND: `${base} -o BatchMode=yes -o ConnectTimeout=${timeoutSeconds}`,
    GIT_TERMINAL_PROMPT: '0',
  };
}

/** The `http.<url>.` config prefix that limits a setting to one server: scheme, host, port and a trailing slash. */
export function httpScope(cloneUrl: string): string {
  return `${new URL(cloneUrl).origin}/`;
}

/**
 * Environment that hands git an `Authorization` header for one server only, through GIT_CONFIG_COUNT/KEY/VALUE
 * (`http.<server>/.extraHeader`): the secret is in neither argv, the remote URL nor any saved config. Settings the
 * caller already passes the same way are kept; git never prompts (GIT_TERMINAL_PROMPT=0).
 */
export function headerAttemptEnv(env: Env, cloneUrl: string, authorization: string): Record<string, string> {
  const n = Number.parseInt(env.GIT_CONFIG_COUNT ?? '0', 10) || 0;
  return {
    GIT_CONFIG_COUNT: String(n + 1),
    [`GIT_CONFIG_KEY_${n}`]: `http.${httpScope(cloneUrl)}.extraHeader`,
    [`GIT_CONFIG_VALUE_${n}`]: `Authorization: ${authorization}`,
    GIT_TERMINAL_PROMPT: '0',
  };
}

/**
 * What went wrong in git's stderr, in one line: the lines up to the first `fatal:`, without progress lines and the
 * "make sure you have the correct access rights" boilerplate; a refused Authorization header is named as such.
 */
export function gitFailure(stderr: string): string {
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('Cloning into'));
  // Git only wants a username after the server refused the header bbdc sent; say that rather than "prompts disabled".
  const refused = lines
    .map((l) => /could not read (?:Username|Password) for '([^']+)'/.exec(l))
    .find(Boolean);
  if (refused) return `${refused[1]} refused the credentials (HTTP 401)`;
  if (lines.some((l) => l.startsWith('Host key verification failed'))) {
    return "Host key verification failed: the server's ssh host key is not in known_hosts yet; connect once with ssh to the clone host to check and accept it";
  }
  const fatal = lines.findIndex((l) => l.startsWith('fatal:'));
  const kept = fatal < 0 ? lines.slice(-3) : lines.slice(0, fatal + 1).slice(-3);
  return kept.join('; ') || 'git clone failed without a message';
}
