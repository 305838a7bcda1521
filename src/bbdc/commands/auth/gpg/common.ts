// GPG keys of your account (/rest/gpg/latest/keys): Bitbucket uses them to verify signed commits.
import type { GpgKey } from '../../../../../generated/types/cli/output/gpg-key-list.ts';
import { UsageError } from '../../../../core/errors.ts';
import { utcIso } from '../../../api/timestamps.ts';

/** A GPG key as Bitbucket returns it. */
export type RestGpgKey = {
  id: string;
  fingerprint: string;
  emailAddress?: string;
  expiryDate?: number;
  text?: string;
};

export const gpgPath = '/rest/gpg/latest/keys';

/** The key shape bbdc prints. */
export function toGpgKey(k: RestGpgKey): GpgKey {
  return {
    id: k.id,
    fingerprint: k.fingerprint,
    ...(k.emailAddress && { email: k.emailAddress }),
    ...(k.expiryDate !== undefined && { expiryDate: utcIso(k.expiryDate) }),
  };
}

/** An ASCII-armoured public key block; a private block is refused before anything is sent. */
export function checkGpgKey(text: string, source: string): string {
  const key = text.trim();
  if (/PRIVATE KEY BLOCK/.test(key))
    throw new UsageError(
      `${source} holds a PRIVATE key; export the public one with \`gpg --armor --export <id>\``,
    );
  if (
    !key.startsWith('-----BEGIN PGP PUBLIC KEY BLOCK-----') ||
    !key.endsWith('-----END PGP PUBLIC KEY BLOCK-----')
  )
    throw new UsageError(
      `${source} is not an ASCII-armoured public key; export one with \`gpg --armor --export <id>\``,
    );
  return `${key}\n`;
}
