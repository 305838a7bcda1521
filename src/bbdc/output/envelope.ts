import { exitCodeOf, RealmforgeError } from '../../core/errors.ts';

/** The `meta` block of every envelope. */
export type EnvelopeMeta = {
  contract: 'bbdc.machine';
  command?: string;
  dryRun?: boolean;
  warnings?: string[];
};

/** The success envelope printed by `--json`. */
export function dataEnvelope(data: unknown, meta: Omit<EnvelopeMeta, 'contract'> = {}) {
  return { version: 'v2' as const, data, meta: { contract: 'bbdc.machine' as const, ...meta } };
}

/** The error envelope printed by `--json`: kind, message and exit code, plus details when there are any. */
export function errorEnvelope(error: unknown, meta: Omit<EnvelopeMeta, 'contract'> = {}) {
  const typed = error instanceof RealmforgeError;
  const body: { kind: string; message: string; exitCode: number; details?: string[] } = {
    kind: typed ? error.kind : 'internal',
    message: error instanceof Error ? error.message : String(error),
    exitCode: exitCodeOf(error),
  };
  if (typed && error.details.length) body.details = [...error.details];
  // An error bbdc did not expect is a bug, not an answer from the server: say so, so nobody retries in vain.
  if (!typed)
    body.details = ['unexpected: this is a bug in bbdc; rerun with --log-level debug and report it'];
  return { version: 'v2' as const, error: body, meta: { contract: 'bbdc.machine' as const, ...meta } };
}
