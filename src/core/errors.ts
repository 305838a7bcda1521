/** The stable error kinds shared by the operator and the CLI; each maps to one exit code. */
export type ErrorKind =
  | 'usage'
  | 'validation'
  | 'auth'
  | 'not_found'
  | 'conflict'
  | 'transient'
  | 'not_implemented'
  | 'internal';

const exitCodes: Record<ErrorKind, number> = {
  usage: 2,
  validation: 2,
  auth: 3,
  not_found: 4,
  conflict: 5,
  transient: 10,
  not_implemented: 11,
  internal: 1,
};

/**
 * Joins message parts into sentences: each part loses its own closing period, so a server's message that ends in
 * one never comes out as `..`; the result has no closing period (the caller's line adds none either).
 */
export function sentences(...parts: (string | undefined | false)[]): string {
  return parts
    .filter((p): p is string => typeof p === 'string' && p.trim() !== '')
    .map((p) => p.trim().replace(/(?<!\.)\.$/, ''))
    .join('. ');
}

/** Collapses a doubled sentence end (`done..`, `failed.. Check`) to one, leaving an ellipsis and a quoted `".."`
 * (a value a user typed) alone: only a doubled end followed by a space or the end of the message is one. */
export function tidyMessage(message: string): string {
  return message.replace(/(?<![.])([.!?])\.(?=\s|$)/g, '$1');
}

/** An error a user can act on: a stable kind, a message that says what, where and what to do. */
export class RealmforgeError extends Error {
  readonly kind: ErrorKind;
  readonly details: readonly string[];
  constructor(
    kind: ErrorKind,
    message: string,
    options: { cause?: unknown; details?: readonly string[] } = {},
  ) {
    // Every user-facing message passes here, so this is the one place a doubled period is caught.
    super(tidyMessage(message), { cause: options.cause });
    this.name = 'RealmforgeError';
    this.kind = kind;
    this.details = (options.details ?? []).map(tidyMessage);
  }
}

/** Bad command-line use: an unknown flag, a missing argument. */
export class UsageError extends RealmforgeError {
  constructor(message: string, options?: { cause?: unknown; details?: readonly string[] }) {
    super('usage', message, options);
  }
}

/** Input that does not satisfy its schema or rules; details list each problem with its path. */
export class ValidationError extends RealmforgeError {
  constructor(message: string, options?: { cause?: unknown; details?: readonly string[] }) {
    super('validation', message, options);
  }
}

/** The exit code of an error of `kind`. */
export const exitCodeFor = (kind: ErrorKind): number => exitCodes[kind];

/** The exit code for any thrown value: typed errors by kind, anything else 1. */
export function exitCodeOf(error: unknown): number {
  return error instanceof RealmforgeError ? exitCodes[error.kind] : 1;
}

/** Renders an error for a terminal: the message and its details, never a stack for a typed error. */
export function describeError(error: unknown): string {
  if (error instanceof RealmforgeError) {
    return [error.message, ...error.details.map((d) => `  - ${d}`)].join('\n');
  }
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
