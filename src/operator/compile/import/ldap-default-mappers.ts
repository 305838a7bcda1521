// The mappers Keycloak creates by itself with a new LDAP provider (LDAPStorageProviderFactory.onCreate), as they
// depend on the provider's settings: the importer leaves out a mapper equal to the one Keycloak would create, since
// the operator's provider gets it from Keycloak too. Read from the exports of Keycloak 26 and 25
// (test/e2e/import.test.ts compares a federated realm's import with Keycloak's own).

type Config = Record<string, string>;
export type DefaultMapper = { readonly providerId: string; readonly config: Config };

const attributeMapper = (
  model: string,
  ldap: string,
  readOnly: string,
  alwaysRead: string,
  mandatory: string,
): DefaultMapper => ({
  providerId: 'user-attribute-ldap-mapper',
  config: {
    'user.model.attribute': model,
    'ldap.attribute': ldap,
    'read.only': readOnly,
    'always.read.value.from.ldap': alwaysRead,
    'is.mandatory.in.ldap': mandatory,
  },
});

/** The mappers Keycloak `major` creates for an LDAP provider with `config` (its settings, first values), by name. */
export function keycloakLdapMappers(config: Config, major: number): Map<string, DefaultMapper> {
  const editMode = config.editMode ?? 'READ_ONLY';
  const readOnly = String(editMode !== 'WRITABLE');
  const alwaysRead = String(editMode !== 'UNSYNCED');
  const username = config.usernameLDAPAttribute ?? 'uid';
  const ad = config.vendor === 'ad';
  const mappers = new Map<string, DefaultMapper>([
    ['username', attributeMapper('username', username, readOnly, 'false', 'true')],
  ]);
  if ((config.rdnLDAPAttribute ?? 'uid').toLowerCase() !== 'cn' || username.toLowerCase() === 'cn')
    mappers.set(
      'first name',
      attributeMapper(
        'firstName',
        username.toLowerCase() === 'cn' ? 'givenName' : 'cn',
        readOnly,
        alwaysRead,
        'true',
      ),
    );
  else if (editMode === 'WRITABLE') {
    mappers.set('first name', attributeMapper('firstName', 'givenName', readOnly, alwaysRead, 'true'));
    mappers.set('username-cn', attributeMapper('username', 'cn', readOnly, alwaysRead, 'true'));
  } else
    mappers.set('full name', {
      providerId: 'full-name-ldap-mapper',
      config: { 'ldap.full.name.attribute': 'cn', 'read.only': readOnly, 'write.only': 'false' },
    });
  mappers.set('last name', attributeMapper('lastName', 'sn', readOnly, alwaysRead, 'true'));
  mappers.set('email', attributeMapper('email', 'mail', readOnly, 'false', 'false'));
  mappers.set(
    'creation date',
    attributeMapper('createTimestamp', ad ? 'whenCreated' : 'createTimestamp', 'true', 'true', 'false'),
  );
  mappers.set(
    'modify date',
    attributeMapper('modifyTimestamp', ad ? 'whenChanged' : 'modifyTimestamp', 'true', 'true', 'false'),
  );
  if (ad)
    mappers.set('MSAD account controls', { providerId: 'msad-user-account-control-mapper', config: {} });
  // Keycloak 26 adds it whether Kerberos is on or not (keycloak/keycloak#40084).
  if (major >= 26)
    mappers.set('Kerberos principal attribute mapper', {
      providerId: 'kerberos-principal-attribute-mapper',
      config: {},
    });
  return mappers;
}
