// The public key an `add` command uploads: --key TEXT or --key-file PATH (- for stdin), checked before sending.

import { UsageError } from '../../../core/errors.ts';
import { checkPublicKey } from '../../api/keys.ts';
import type { CommandDeps, FlagSpec } from '../../command.ts';
import { type DescriptionSource, readDescription } from '../pr/description-input.ts';

export const keyFlags: Record<string, FlagSpec> = {
  key: {
    type: 'string',
    value: 'TEXT',
    description: 'The public key line, e.g. "ssh-ed25519 AAAA... you@host"',
  },
  keyFile: {
    type: 'string',
    value: 'FILE',
    description: 'Read the public key from a file (e.g. ~/.ssh/id_ed25519.pub); - reads stdin',
  },
  label: { type: 'string', value: 'TEXT', description: 'A label for the key (default: its comment)' },
};

/** Where the key comes from: exactly one of --key and --key-file. */
export function keySource(flags: Record<string, unknown>): DescriptionSource {
  if ((flags.key === undefined) === (flags.keyFile === undefined))
    throw new UsageError('give the public key with --key TEXT or --key-file FILE (one of them)');
  return { text: flags.key as string | undefined, file: flags.keyFile as string | undefined };
}

/** Reads and checks the key. */
export async function readKey(source: DescriptionSource, deps: CommandDeps): Promise<string> {
  return checkPublicKey(
    await readDescription(source, deps, false),
    source.file !== undefined ? `--key-file ${source.file}` : '--key',
  );
}
