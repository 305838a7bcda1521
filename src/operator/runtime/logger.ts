// JSON logs, one object per line, so a log pipeline can parse them; the time comes from the injected clock.
import type { Clock } from '../../core/clock.ts';

/** Fields of one log line besides time, level and msg. */
export type LogFields = Record<string, unknown>;

/** A structured logger. */
export type Logger = {
  /** Routine detail (a reconcile that changed nothing); written only at --log-level=debug. */
  debug?(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
};

/** A logger writing one JSON line per call to `out`. */
export function jsonLogger(out: { write(chunk: string): unknown }, clock: Clock): Logger {
  const line =
    (level: string) =>
    (msg: string, fields: LogFields = {}) => {
      out.write(`${JSON.stringify({ time: new Date(clock.now()).toISOString(), level, msg, ...fields })}\n`);
    };
  return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
}
