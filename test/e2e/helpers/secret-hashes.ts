// What a holder of view-realm reads about a password Keycloak does not echo: realm attributes and component config.
// checkSecretHashes asserts that none of their values is the password, or an unkeyed SHA-256 of it (alone or with
// any of the salts the operator uses), and that the recorded hash is the HMAC with the key in the server's
// `<server>-hash-key` Secret: checking a guessed password against it needs that key.
import { createHash, createHmac } from 'node:crypto';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../../../scripts/testenv/harness.ts';

/** Every string inside `value`, however deep, and inside JSON kept as a string (the ownership record). */
const strings = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value, ...(value.startsWith('{') ? strings(parsed(value)) : [])]
    : value && typeof value === 'object'
      ? Object.values(value).flatMap(strings)
      : [];

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Checks `readable` (what view-realm shows) for `password`; `salt` is where the operator uses it and
 * `recorded` the hash value it must have written. */
export async function checkSecretHashes(
  env: TestEnv,
  server: { namespace: string; name: string },
  readable: unknown,
  secret: { password: string; salt: string; recorded: string | undefined },
): Promise<void> {
  const sha = (text: string) => createHash('sha256').update(text).digest('hex');
  const guesses = [secret.password, `${secret.salt}\0${secret.password}`].map(sha);
  const values = strings(readable);
  assert.not.ok(values.includes(secret.password), 'the password itself is readable');
  for (const value of values)
    assert.not.ok(
      value.length >= 16 && guesses.some((g) => g.startsWith(value.toLowerCase())),
      `${value} is an unkeyed hash of the password`,
    );
  const stored = await env.core.readNamespacedSecret({
    namespace: server.namespace,
    name: `${server.name}-hash-key`,
  });
  const key = Buffer.from(stored.data?.key ?? '', 'base64').toString('utf8');
  assert.ok(key.length >= 16, 'a random key');
  const keyed = createHmac('sha256', key).update(`${secret.salt}\0${secret.password}`).digest('hex');
  assert.is(secret.recorded, keyed.slice(0, 32), 'the recorded hash is keyed');
  assert.ok(values.includes(keyed.slice(0, 32)), 'and it is the value readable');
}
