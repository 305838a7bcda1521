// Keycloak's password policy: a typed object in the spec, one string in Keycloak ("length(12) and digits(1) and
// notUsername(undefined)"). Compiled in a fixed order; compared parsed (policy id -> value), so a policy string
// written in another order or with Keycloak's own spelling of a flag is the same policy.
import type { Fields, RealmSpec } from './section.ts';

type Policy = NonNullable<RealmSpec['passwordPolicy']>;

/** The spec's fields in Keycloak's order (its admin console lists them so). */
export const passwordPolicyFields = [
  'length',
  'maxLength',
  'digits',
  'upperCase',
  'lowerCase',
  'specialChars',
  'notUsername',
  'notEmail',
  'passwordHistory',
  'forceExpiredPasswordChange',
  'regexPattern',
  'hashAlgorithm',
  'hashIterations',
  'passwordBlacklist',
] as const satisfies readonly (keyof Policy)[];

/** Policies without a value: Keycloak writes them `notUsername(undefined)`; false means absent. */
export const passwordPolicyFlags: ReadonlySet<string> = new Set(['notUsername', 'notEmail']);

/** Policies the spec holds as text; every other one with a value is a number. */
export const passwordPolicyTexts: ReadonlySet<string> = new Set([
  'regexPattern',
  'hashAlgorithm',
  'passwordBlacklist',
]);

export const passwordPolicyDefaults: Fields = { passwordPolicy: '' };

/** The policy string Keycloak stores. */
export function passwordPolicyString(policy: Policy): string {
  const parts: string[] = [];
  for (const id of passwordPolicyFields) {
    const value = policy[id];
    if (value === undefined || value === false) continue;
    parts.push(passwordPolicyFlags.has(id) ? `${id}(undefined)` : `${id}(${value})`);
  }
  return parts.join(' and ');
}

/** A policy string as policy id -> value (flags have ''), keys sorted: the form compared. */
export function parsePasswordPolicy(text: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of String(text ?? '').split(' and ')) {
    const match = /^\s*([A-Za-z0-9_-]+)\s*(?:\((.*)\))?\s*$/s.exec(part);
    if (!match?.[1]) continue;
    const id = match[1];
    out[id] = passwordPolicyFlags.has(id) ? '' : (match[2] ?? '');
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

export function compilePasswordPolicy(spec: RealmSpec): Fields {
  return spec.passwordPolicy ? { passwordPolicy: passwordPolicyString(spec.passwordPolicy) } : {};
}
