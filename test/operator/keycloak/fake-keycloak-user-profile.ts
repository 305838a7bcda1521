// The fake Keycloak's declarative user profile (see fake-keycloak-admin.ts): one document (UPConfig), read and
// replaced whole, as in Keycloak. As strict as Keycloak where the operator could be fooled, with Keycloak's own
// words (UPConfigUtils): username and email cannot be removed, a name must be valid and unique, a validator must
// exist, roles are admin or user, scopes must be the realm's, an attribute's group must exist; a 400 changes
// nothing. Keycloak's answer fills in multivalued (false) on every attribute.
import { userProfileDefaults } from '../../../src/operator/keycloak/collections/user-profile-defaults.ts';
import { copy, type Realm, reply } from './fake-keycloak-scopes.ts';

type Obj = Record<string, any>;

/** The validators the fake server has (a few of Keycloak's). */
export const validatorProviders = [
  'length',
  'email',
  'pattern',
  'integer',
  'double',
  'options',
  'uri',
  'local-date',
  'person-name-prohibited-characters',
  'username-prohibited-characters',
  'up-username-not-idn-homograph',
];
const policies = ['ENABLED', 'ADMIN_VIEW', 'ADMIN_EDIT'];

/** The realm's profile as Keycloak answers it (a new realm: Keycloak's default document). */
export function userProfileOf(realm: Realm): Obj {
  realm.userProfile ??= userProfileDefaults(undefined);
  const doc = copy(realm.userProfile) as Obj;
  doc.attributes = (doc.attributes ?? []).map((a: Obj) => ({ ...a, multivalued: a.multivalued ?? false }));
  return doc;
}

/** What Keycloak says is wrong with `doc`, if anything. */
export function problems(realm: Realm, doc: Obj): string[] {
  const errors: string[] = [];
  const attributes = (doc.attributes ?? []) as Obj[];
  const groups = new Set(((doc.groups ?? []) as Obj[]).map((g) => g.name));
  const scopes = new Set(realm.clientScopes.map((s) => s.name));
  const names = attributes.map((a) => a.name);
  for (const root of ['username', 'email'])
    if (!names.includes(root)) errors.push(`The attribute '${root}' can not be removed`);
  const seen = new Set<string>();
  for (const a of attributes) {
    if (!a.name) errors.push("Attribute configuration without 'name' is not allowed");
    else if (!/^[a-zA-Z0-9._-]+$/.test(a.name))
      errors.push(
        `Invalid attribute name (only letters, numbers and '.' '_' '-' special characters allowed): ${a.name}'`,
      );
    if (seen.has(a.name)) errors.push(`Attribute configuration already exists with 'name':'${a.name}'`);
    seen.add(a.name);
    for (const v of Object.keys(a.validations ?? {}))
      if (!validatorProviders.includes(v))
        errors.push(`Validator '${v}' defined for attribute '${a.name}' doesn't exist`);
    const roles: [string, string[] | undefined][] = [
      ['permissions.view', a.permissions?.view],
      ['permissions.edit', a.permissions?.edit],
      ['required.roles', a.required?.roles],
    ];
    for (const [field, list] of roles)
      for (const r of list ?? [])
        if (r !== 'admin' && r !== 'user')
          errors.push(`'${field}' configuration for attribute '${a.name}' contains unsupported role '${r}'`);
    const scoped: [string, string[] | undefined][] = [
      ['required.scopes', a.required?.scopes],
      ['selector.scopes', a.selector?.scopes],
    ];
    for (const [field, list] of scoped)
      for (const s of list ?? [])
        if (!scopes.has(s))
          errors.push(`'${field}' configuration for attribute '${a.name}' contains unsupported scope '${s}'`);
    if (a.group && !groups.has(a.group))
      errors.push(`Attribute '${a.name}' references unknown group '${a.group}'`);
  }
  if (doc.unmanagedAttributePolicy !== undefined && !policies.includes(doc.unmanagedAttributePolicy))
    errors.push(`Unsupported unmanagedAttributePolicy ${doc.unmanagedAttributePolicy}`);
  return errors;
}

/** .../users/profile: GET the document, PUT a whole new one (answered with the document as stored). */
export function userProfileRoute(realm: Realm, method: string, body: any) {
  if (method === 'GET') return reply(200, userProfileOf(realm));
  if (method !== 'PUT') return reply(405);
  const wrong = problems(realm, body ?? {});
  if (wrong.length) return reply(400, { errorMessage: wrong.join(', ') });
  realm.userProfile = copy(body);
  return reply(200, userProfileOf(realm));
}
