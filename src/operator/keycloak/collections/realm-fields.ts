// How a realm's own settings are managed (see managed-fields.ts): Keycloak's default of every field the
// operator can set on a realm (declared beside each section's compiler), so a field removed from the spec goes
// back to what a new realm has; the password policy is compared parsed, not as a string.
import { parsePasswordPolicy } from '../../compile/realm/password-policy.ts';
import {
  realmCarriedFields,
  realmFieldDefaults,
  realmFieldDefaultsFor,
  realmSetFields,
} from '../../compile/realm-representation.ts';
import type { FieldRules } from './managed-fields.ts';

export const realmFields: FieldRules = {
  noun: 'realm',
  defaults: realmFieldDefaults,
  maps: ['attributes', 'smtpServer'],
  sets: realmSetFields,
  carry: realmCarriedFields,
  normalise: { passwordPolicy: parsePasswordPolicy },
  unreadable: ['smtpServer/password'],
  attributes: { map: 'attributes', listValues: false },
};

/** The rules for a realm on Keycloak `version` (its defaults table; unknown: 26's). */
export const realmFieldsFor = (version: string | undefined): FieldRules => ({
  ...realmFields,
  defaults: realmFieldDefaultsFor(version),
});
