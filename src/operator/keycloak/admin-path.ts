// The template of an admin API path, for the request counter by path: names and ids become {realm} and {id}, query
// values are dropped. A steady state's reads then explain themselves ("GET /admin/realms/{realm}/clients?clientId&max
// by IdentityClient") without one series per realm or client. Segments that are words of the admin API stay; any
// other segment is a name or an id.

const words = new Set([
  'admin-events',
  'add-models',
  'attack-detection',
  'authentication',
  'available',
  'children',
  'client-policies',
  'client-scopes',
  'client-secret',
  'clients',
  'components',
  'composite',
  'composites',
  'count',
  'default-client-scopes',
  'default-default-client-scopes',
  'default-groups',
  'default-optional-client-scopes',
  'effective',
  'events',
  'executions',
  'flows',
  'groups',
  'identity-provider',
  'import-config',
  'instances',
  'keys',
  'ldap-server-capability',
  'localization',
  'management',
  'mappers',
  'members',
  'models',
  'optional-client-scopes',
  'organizations',
  'partial-export',
  'partialImport',
  'permissions',
  'policies',
  'profiles',
  'protocol-mappers',
  'realm',
  'required-actions',
  'role-mappings',
  'roles',
  'roles-by-id',
  'rotated',
  'scope-mappings',
  'service-account-user',
  'sessions',
  'sync',
  'testLDAPConnection',
  'user-storage',
  'users',
]);

/**
 * The template of `path` as the admin client takes it (relative to /admin/realms; `../x` for the admin root;
 * `/realms/...` for a token request): `/{realm}/clients/3f2a.../roles?first=0` ->
 * `/admin/realms/{realm}/clients/{id}/roles?first`.
 */
export function adminPathTemplate(path: string): string {
  const [pathname = '', query] = path.split('?', 2);
  const names = query ? `?${[...new URLSearchParams(query).keys()].join('&')}` : '';
  const segments = pathname.split('/').filter(Boolean);
  if (pathname.startsWith('../')) return `/admin/${segments.slice(1).join('/')}${names}`;
  if (pathname.startsWith('/realms/')) return `/realms/{realm}/${segments.slice(2).join('/')}${names}`;
  const templated = segments.map((s, i) => (i === 0 ? '{realm}' : words.has(s) ? s : '{id}'));
  return `/admin/realms${templated.length ? `/${templated.join('/')}` : ''}${names}`;
}
