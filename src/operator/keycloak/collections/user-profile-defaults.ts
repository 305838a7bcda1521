// What a new realm's user profile has on each supported Keycloak line: the built-in attributes and group the
// operator resets when the spec stops declaring them. Data taken from a bare realm of each line (Keycloak's
// keycloak-default-user-profile.json; test/e2e/realm-user-profile.test.ts checks it against the real Keycloak).
// 25.0 and 26.x ship the same document.
import type { Item } from './collection.ts';

/** A message key Keycloak resolves per locale: `${username}`. */
const message = (key: string) => `\${${key}}`;
const both = ['admin', 'user'];
const everyone = { view: both, edit: both };
const byUser = { roles: ['user'] };

const line25and26: { attributes: Item[]; groups: Item[] } = {
  attributes: [
    {
      name: 'username',
      displayName: message('username'),
      permissions: everyone,
      validations: {
        length: { min: 3, max: 255 },
        'username-prohibited-characters': {},
        'up-username-not-idn-homograph': {},
      },
    },
    {
      name: 'email',
      displayName: message('email'),
      required: byUser,
      permissions: everyone,
      validations: { email: {}, length: { max: 255 } },
    },
    {
      name: 'firstName',
      displayName: message('firstName'),
      required: byUser,
      permissions: everyone,
      validations: { length: { max: 255 }, 'person-name-prohibited-characters': {} },
    },
    {
      name: 'lastName',
      displayName: message('lastName'),
      required: byUser,
      permissions: everyone,
      validations: { length: { max: 255 }, 'person-name-prohibited-characters': {} },
    },
  ],
  groups: [
    {
      name: 'user-metadata',
      displayHeader: 'User metadata',
      displayDescription: 'Attributes, which refer to user metadata',
    },
  ],
};

/** The default user profile of Keycloak `version`'s line (unknown: 26's). */
export function userProfileDefaults(_version: string | undefined): { attributes: Item[]; groups: Item[] } {
  return structuredClone(line25and26);
}
