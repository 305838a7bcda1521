import { exitCodeOf, RealmforgeError } from '../../core/errors.ts';

/** The `meta` block of every envelope. */
export type EnvelopeMeta = {
  contract: 'bbdc.machine';
  command?: string;
  dryRun?: boolean;
  warnings?: string[];
  /** True when `data` holds only what arrived before `error` stopped the command. */
  partial?: boolean;
};

/** The success envelope printed by `--json`. */
export function dataEnvelope(data: unknown, meta: Omit<EnvelopeMeta, 'contract'> = {}) {
  return { version: 'v2' as const, data, meta: { contract: 'bbdc.machine' as const, ...meta } };
}

/**
 * The end of a success envelope whose data stopped part way (a streamed list whose next page failed), written once
 * its data's brackets are closed: the error and meta, so stdout stays one JSON document with both.
 */
export function partialEnvelopeEnd(error: unknown, command: string): string {
  const { error: body } = errorEnvelope(error);
  const meta: EnvelopeMeta = { contract: 'bbdc.machine', command, partial: true };
  return `,"error":${JSON.stringify(body)},"meta":${JSON.stringify(meta)}}`;
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
