import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The node flags bin/bbdc.js's second line gives node (sh: `exec node <flags> "$0" "$@"`). */
export function checkoutFlags(): string[] {
  const bin = join(import.meta.dirname, '..', '..', '..', 'bin', 'bbdc.js');
  const line = readFileSync(bin, 'utf8').split('\n')[1];
  const flags = /^':' \/\/; exec node (.*) "\$0" "\$@"$/.exec(line);
  if (!flags) throw new Error(`bin/bbdc.js's second line is not the sh line that runs node: ${line}`);
  return flags[1].split(' ');
}
