import { createHash } from 'node:crypto';
import { RealmforgeError } from '../../core/errors.ts';

/** Parses `sha256sum` output (`<hex>  <name>` or `<hex> *<name>`) into name -> lower-case hex digest. */
export function parseChecksums(text: string): Map<string, string> {
  const sums = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([0-9a-fA-F]{64}) [ *](.+)$/.exec(line.trimEnd());
    if (m) sums.set(m[2], m[1].toLowerCase());
  }
  return sums;
}

/** The sha256 of some bytes, lower-case hex. */
export const sha256Hex = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Throws unless `data` is the file `name` that the verified checksum list describes. */
export function verifyChecksum(sums: Map<string, string>, name: string, data: Buffer): void {
  const expected = sums.get(name);
  if (!expected) {
    throw new RealmforgeError('validation', `sha256sums.txt has no line for ${name}; refusing to install it`);
  }
  const actual = sha256Hex(data);
  if (actual !== expected) {
    throw new RealmforgeError(
      'validation',
      `${name} does not match its checksum (expected sha256 ${expected}, got ${actual}); the download is corrupt or was tampered with, nothing was changed`,
    );
  }
}
