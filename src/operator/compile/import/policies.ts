// Security defenses, the password policy and the OTP and WebAuthn policies: the inverse of
// compile/realm/security-defenses.ts, password-policy.ts and authentication-policies.ts, against the defaults
// table of the export's Keycloak version.

import {
  parsePasswordPolicy,
  passwordPolicyFields,
  passwordPolicyFlags,
  passwordPolicyTexts,
} from '../realm/password-policy.ts';
import { securityDefensesDefaults } from '../realm/security-defenses.ts';
import { realmFieldDefaultsFor } from '../realm-representation.ts';
import { compact, type ImportContext, type Json, objectAt, pathOf, type RealmSpec, same } from './context.ts';

type Policy = NonNullable<RealmSpec['passwordPolicy']>;
const fields: ReadonlySet<string> = new Set(passwordPolicyFields);

const bruteForceFields = Object.keys(securityDefensesDefaults).filter(
  (k) => k !== 'browserSecurityHeaders' && k !== 'bruteForceProtected',
);

export const policiesKeys = [
  'browserSecurityHeaders',
  'bruteForceProtected',
  ...bruteForceFields,
  'passwordPolicy',
  ...Object.keys(realmFieldDefaultsFor('26')).filter((k) => /^(otpPolicy|webAuthnPolicy)/.test(k)),
];

export function importPolicies(exp: Json, ctx: ImportContext): Partial<RealmSpec> {
  const defaults = realmFieldDefaultsFor(String(ctx.major));
  const policy = (prefix: string) => {
    const out: Json = {};
    for (const field of Object.keys(defaults).filter((k) => k.startsWith(prefix))) {
      const rest = field.slice(prefix.length);
      // webAuthnPolicy's prefix also starts webAuthnPolicyPasswordless's fields.
      if (prefix === 'webAuthnPolicy' && rest.startsWith('Passwordless')) continue;
      if (field in exp && !same(exp[field], defaults[field]))
        out[`${rest[0]?.toLowerCase()}${rest.slice(1)}`] = exp[field];
    }
    return out;
  };
  return compact({
    securityDefenses: importDefenses(exp, ctx, objectAt(defaults.browserSecurityHeaders)),
    passwordPolicy: importPasswordPolicy(exp.passwordPolicy, ctx),
    otpPolicy: policy('otpPolicy'),
    webAuthnPolicy: policy('webAuthnPolicy'),
    webAuthnPasswordlessPolicy: policy('webAuthnPolicyPasswordless'),
  }) as Partial<RealmSpec>;
}

function importDefenses(exp: Json, ctx: ImportContext, defaultHeaders: Json): RealmSpec['securityDefenses'] {
  const headers: Json = {};
  const live = objectAt(exp.browserSecurityHeaders);
  const known = Object.keys(objectAt(securityDefensesDefaults.browserSecurityHeaders));
  for (const [name, value] of Object.entries(live)) {
    if (same(value, defaultHeaders[name])) continue;
    if (known.includes(name)) headers[name] = value;
    else ctx.note(pathOf('browserSecurityHeaders', name), 'a header the CRD has no field for');
  }
  const bruteForce = Object.fromEntries(
    bruteForceFields
      .filter((k) => k in exp && !same(exp[k], securityDefensesDefaults[k]))
      .map((k) => [k, exp[k]]),
  );
  if (exp.bruteForceProtected !== true && Object.keys(bruteForce).length) {
    for (const k of Object.keys(bruteForce))
      ctx.note(k, 'brute-force settings while detection is off have no field');
  }
  // Detection on with every setting at its default is an empty object, which compact() would drop.
  const section: Json = compact({ headers });
  if (exp.bruteForceProtected === true) section.bruteForceDetection = bruteForce;
  return Object.keys(section).length ? (section as RealmSpec['securityDefenses']) : undefined;
}

/** Keycloak's policy string as the spec's typed object; a policy the CRD has no field for is noted. */
function importPasswordPolicy(text: unknown, ctx: ImportContext): Policy | undefined {
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  const out: Record<string, unknown> = {};
  for (const [id, value] of Object.entries(parsePasswordPolicy(text))) {
    if (!fields.has(id)) ctx.note(`passwordPolicy(${id})`, 'a password policy the CRD has no field for');
    else if (passwordPolicyFlags.has(id)) out[id] = true;
    else if (passwordPolicyTexts.has(id)) out[id] = value;
    else if (/^\d+$/.test(value)) out[id] = Number(value);
    else ctx.note(`passwordPolicy(${id})`, 'a password policy the CRD has no field for');
  }
  return Object.keys(out).length ? (out as Policy) : undefined;
}
