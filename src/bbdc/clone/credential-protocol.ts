// git's credential helper protocol (gitcredentials(7), "custom helpers"): `key=value` lines on stdin up to a blank
// line; a `get` is answered with the same kind of lines. Pure functions, so the protocol is tested without git.
import type { BbdcHost } from '../../../generated/types/cli/config.ts';

/** What git asks about: protocol and host (host:port), sometimes path and username. */
export type CredentialRequest = { protocol?: string; host?: string; path?: string; username?: string };

/** Parses the attributes git writes; unknown keys are ignored, as the protocol asks helpers to do. */
export function parseCredentialRequest(text: string): CredentialRequest {
  const request: CredentialRequest = {};
  for (const line of text.split('\n')) {
    if (line.trim() === '') break;
    const eq = line.indexOf('=');
    const key = line.slice(0, eq);
    if (eq > 0 && (key === 'protocol' || key === 'host' || key === 'path' || key === 'username'))
      request[key] = line.slice(eq + 1).replace(/\r$/, '');
  }
  return request;
}

/** The answer to a `get`; a value with a newline would break the protocol, so such an answer is refused. */
export function formatCredential(username: string, password: string): string {
  if (/[\n\0]/.test(username + password))
    throw new Error('a credential with a newline cannot be handed to git');
  return `username=${username}\npassword=${password}\n`;
}

/** The stored host git's request is for: same host:port over http(s), the same scheme preferred. */
export function hostForRequest(hosts: BbdcHost[], request: CredentialRequest): BbdcHost | undefined {
  if (!request.host || (request.protocol !== 'https' && request.protocol !== 'http')) return undefined;
  const wanted = request.host.toLowerCase();
  const candidates = hosts.filter((h) => new URL(h.url).host.toLowerCase() === wanted);
  return candidates.find((h) => h.url.startsWith(`${request.protocol}:`)) ?? candidates[0];
}

/** The URL prefix git matches `credential.<url>.helper` against: scheme, host and port of a stored host. */
export function credentialScope(hostUrl: string): string {
  const url = new URL(hostUrl);
  return `${url.protocol}//${url.host}`;
}
