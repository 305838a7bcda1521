import type { Clock } from '../../core/clock.ts';
import { stringifyJson } from '../../core/exact-json.ts';
import { utcIso } from '../api/timestamps.ts';
import type { Writer } from '../deps.ts';

/** Log verbosity, from quietest to loudest. */
export type LogLevel = 'error' | 'warn' | 'info' | 'debug';
/** `text` lines for people, `json` lines for log collectors. */
export type LogFormat = 'text' | 'json';

const order: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

/** A stderr logger that replaces every known secret with `***` before writing. */
export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
  /** Registers a secret (token, password) so it never appears in any line. */
  redact(secret: string | undefined): void;
  /** Removes known secrets from any text bound for stdout or stderr. */
  scrub(text: string): string;
}

/** Builds the logger for one run; lines below `level` are dropped. */
export function createLogger(options: {
  level: LogLevel;
  format: LogFormat;
  out: Writer;
  clock: Clock;
}): Logger {
  const secrets = new Set<string>();
  const scrub = (text: string) => {
    let result = text;
    for (const s of secrets) result = result.split(s).join('***');
    return result;
  };
  return {
    redact(secret) {
      if (secret && secret.length >= 4) secrets.add(secret);
    },
    scrub,
    log(level, message, fields = {}) {
      if (order[level] > order[options.level]) return;
      let line: string;
      if (options.format === 'json') {
        line = stringifyJson({
          time: utcIso(options.clock.now()),
          level,
          message,
          ...fields,
        });
      } else {
        const extra = Object.entries(fields)
          .map(([k, v]) => `${k}=${typeof v === 'string' ? v : stringifyJson(v)}`)
          .join(' ');
        line = `${level}: ${message}${extra ? ` ${extra}` : ''}`;
      }
      options.out.write(`${scrub(line)}\n`);
    },
  };
}
