// SSH keys: a user's own keys (/ssh/latest) and the access keys of projects and repositories (/keys/latest).
import type { SshKey } from '../../../generated/types/cli/output/ssh-key-list.ts';
import { UsageError } from '../../core/errors.ts';
import { segment } from './path.ts';
import type { Scope } from './scope.ts';

/** An SSH key as Bitbucket returns it. */
export type RestSshKey = {
  id: number;
  text: string;
  label?: string;
  algorithmType?: string;
  bitLength?: number;
  fingerprint?: string;
};
/** An access key: the key and the permission it grants on the project or repository. */
export type RestAccessKey = { key: RestSshKey; permission: string };

/** The access keys of a project or repository, or one of them. */
export function accessKeysPath(scope: Scope, id?: number): string {
  const base =
    scope.type === 'project'
      ? `/rest/keys/latest/projects/${segment('project', scope.project)}/ssh`
      : `/rest/keys/latest/projects/${segment('project', scope.project)}/repos/${segment('repository', scope.slug)}/ssh`;
  return id === undefined ? base : `${base}/${id}`;
}

/** A public key line (`ssh-ed25519 AAAA... comment`); a private key or anything else is refused. */
export function checkPublicKey(text: string, source: string): string {
  const key = text.trim();
  if (/PRIVATE KEY/.test(key))
    throw new UsageError(
      `${source} holds a PRIVATE key; give the public one (the .pub file), the private key never leaves your machine`,
    );
  if (
    !/^(ssh-(rsa|dss|ed25519)|ecdsa-sha2-nistp\d+|sk-(ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com) [A-Za-z0-9+/=]+( .*)?$/.test(
      key,
    )
  )
    throw new UsageError(
      `${source} is not an OpenSSH public key line such as "ssh-ed25519 AAAA... you@host"`,
    );
  return key;
}

/** The key shape bbdc prints (the key text is kept; it is public). */
export function toSshKey(k: RestSshKey, permission?: string): SshKey {
  return {
    id: k.id,
    ...(k.label && { label: k.label }),
    ...(k.algorithmType && { algorithm: k.algorithmType }),
    ...(k.bitLength && { bits: k.bitLength }),
    ...(k.fingerprint && { fingerprint: k.fingerprint }),
    text: k.text,
    ...(permission && { permission }),
  };
}

/** Parses a key id argument. */
export function parseKeyId(value: string | undefined): number {
  if (!/^\d+$/.test(String(value ?? '')))
    throw new UsageError(`key id "${value}" must be a number (see the list command)`);
  return Number(value);
}
