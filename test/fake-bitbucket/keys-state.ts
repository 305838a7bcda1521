// SSH keys, access keys, GPG keys and HTTP access tokens, kept beside the fake's state (one per server).
import { createHash } from 'node:crypto';
import type { FakeState } from './state.ts';

/** An SSH key on a user (`owner` is the user name) or, as an access key, on a scope (`PROJ` or `PROJ/slug`). */
export type FakeSshKey = { id: number; owner: string; text: string; label?: string; permission?: string };
/** A GPG key of a user. */
export type FakeGpgKey = {
  id: string;
  owner: string;
  fingerprint: string;
  emailAddress: string;
  text: string;
};
/** An HTTP access token of a user (`users/alice`), project (`projects/PROJ`) or repository (`projects/PROJ/repos/api`). */
export type FakeToken = {
  id: string;
  scope: string;
  name: string;
  permissions: string[];
  createdDate: number;
  expiryDays?: number;
  secret: string;
  user: string;
};
/** All key and token data. */
export type KeysState = { ssh: FakeSshKey[]; gpg: FakeGpgKey[]; tokens: FakeToken[]; nextId: number };

const all = new WeakMap<FakeState, KeysState>();

/** The key data of a fake server, created empty on first use. */
export function keysState(state: FakeState): KeysState {
  let k = all.get(state);
  if (!k) {
    k = { ssh: [], gpg: [], tokens: [], nextId: 1 };
    all.set(state, k);
  }
  return k;
}

/** Bitbucket's fields for an SSH key: algorithm, bits and the SHA256 fingerprint of the key blob. */
export function sshKeyJson(k: FakeSshKey) {
  const [type, blob = ''] = k.text.split(' ');
  return {
    id: k.id,
    text: k.text,
    ...(k.label && { label: k.label }),
    algorithmType: type.replace(/^ssh-/, '').toUpperCase(),
    bitLength: type === 'ssh-ed25519' ? 256 : 2048,
    fingerprint: `SHA256:${createHash('sha256').update(Buffer.from(blob, 'base64')).digest('base64').replace(/=+$/, '')}`,
  };
}
