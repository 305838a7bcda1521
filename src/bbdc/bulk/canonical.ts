import { createHash } from 'node:crypto';
import { canonicalJson } from '../../core/canonical-json.ts';

/** `sha256:<hex>` of the canonical JSON of a document. */
export function sha256Of(value: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value)).digest('hex')}`;
}
