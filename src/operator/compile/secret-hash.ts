import { createHmac } from 'node:crypto';

/** The one hash of a secret Keycloak does not echo: an HMAC-SHA256 with the server's key (`key`, kept in Kubernetes,
 * so what view-realm shows cannot be checked against guessed passwords), salted with where the secret is used so
 * equal secrets in two places do not match. */
export function secretHash(key: string, salt: string, secret: string): string {
  return createHmac('sha256', key).update(`${salt}\0${secret}`).digest('hex').slice(0, 32);
}
