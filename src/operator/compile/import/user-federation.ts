// User federation: the realm's LDAP and Kerberos user storage components (with the mappers under an LDAP
// provider) as spec.userFederation, the inverse of compile/realm/user-federation.ts and kerberos.ts. A bind
// password becomes a Secret reference, a keytab path the name of a keytab the IdentityServer declares; a setting
// equal to what the operator sends when the spec is silent, and a mapper Keycloak creates by itself, are left out.
import type { UserCachePolicy } from '../../../../generated/types/crds/federation.ts';
import { keytabFile, keytabRoot } from '../kerberos-keytabs.ts';
import { ldapMapperType, userStorageType } from '../realm/user-federation.ts';
import {
  compact,
  type ImportContext,
  type Json,
  listAt,
  objectAt,
  pathOf,
  type RealmSpec,
} from './context.ts';
import { secretName } from './identity-providers.ts';
import { keycloakLdapMappers } from './ldap-default-mappers.ts';
import { ldapMapperTypes, readSettings, type Settings } from './user-federation-settings.ts';

type Federation = NonNullable<RealmSpec['userFederation']>;
type Config = Record<string, string>;

/** A component's settings, first values (Keycloak keeps each as a list of strings). */
const firstValues = (config: unknown): Config =>
  Object.fromEntries(
    Object.entries(objectAt(config)).map(([k, v]) => [k, String(Array.isArray(v) ? (v[0] ?? '') : v)]),
  );

export function importUserFederation(exp: Json, ctx: ImportContext): Partial<RealmSpec> {
  const ldap: Json[] = [];
  const kerberos: Json[] = [];
  for (const component of listAt(objectAt(exp.components)[userStorageType])) {
    const name = String(component.name);
    const path = `${pathOf('components', userStorageType)}[${name}]`;
    const config = firstValues(component.config);
    const read = readSettings(ctx, `${path}.config`, config);
    if (component.providerId === 'ldap') {
      const missing = ['connectionUrl', 'usersDn'].filter((k) => !config[k]);
      if (missing.length)
        ctx.note(path, `an LDAP provider without ${missing.join(', ')}: the CRD requires them`);
      else ldap.push(importLdap(ctx, path, name, read, component));
    } else if (component.providerId === 'kerberos') {
      const provider = importKerberos(ctx, path, name, read);
      if (provider) kerberos.push(provider);
    } else ctx.note(path, `user storage provider ${String(component.providerId)} has no field in the CRD`);
  }
  return compact({ userFederation: compact({ ldap, kerberos }) as Federation });
}

/** The name of the keytab at `path` (one the operator mounted is named by its directory; another after the
 * provider), recorded for the IdentityServer to declare. */
function keytabName(ctx: ImportContext, path: string, provider: string): string {
  const prefix = `${keytabRoot}/`;
  const mounted = path.startsWith(prefix) && path.endsWith(`/${keytabFile}`);
  const inner = mounted ? path.slice(prefix.length, -keytabFile.length - 1) : '';
  const name = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(inner)
    ? inner
    : secretName(provider).slice(0, 63).replace(/-+$/, '');
  return ctx.keytab(name || 'keytab', path);
}

function kerberosIntegration(ctx: ImportContext, s: Settings, provider: string) {
  return compact({
    kerberosRealm: s.text('kerberosRealm'),
    serverPrincipal: s.text('serverPrincipal'),
    keytab: s.has('keyTab') ? keytabName(ctx, s.text('keyTab') ?? '', provider) : undefined,
    debug: s.flag('debug', false),
  });
}

function importKerberos(ctx: ImportContext, path: string, name: string, s: Settings) {
  const integration = kerberosIntegration(ctx, s, name);
  const missing = ['kerberosRealm', 'serverPrincipal', 'keytab'].filter((k) => !(k in integration));
  if (missing.length) {
    ctx.note(path, `a Kerberos provider without ${missing.join(', ')}: the CRD requires them`);
    return undefined;
  }
  const policy = s.choice(
    'cachePolicy',
    ['EVICT_DAILY', 'EVICT_WEEKLY', 'MAX_LIFESPAN', 'NO_CACHE'],
    'DEFAULT',
  );
  const provider = compact({
    name,
    enabled: s.flag('enabled', true),
    priority: s.number('priority', 0),
    ...integration,
    allowPasswordAuthentication: s.flag('allowPasswordAuthentication', false),
    editMode: s.choice('editMode', ['UNSYNCED'], 'READ_ONLY'),
    updateProfileFirstLogin: s.flag('updateProfileFirstLogin', false),
    cachePolicy: policy
      ? (compact({
          policy,
          evictionDay: s.number('evictionDay'),
          evictionHour: s.number('evictionHour'),
          evictionMinute: s.number('evictionMinute'),
          maxLifespanMs: s.number('maxLifespan'),
        }) as UserCachePolicy)
      : undefined,
  });
  s.rest(['lastSync']);
  return provider;
}

function importLdap(ctx: ImportContext, path: string, name: string, s: Settings, component: Json): Json {
  const authType = s.text('authType', 'none');
  const bindDn = s.text('bindDn');
  const password = s.text('bindCredential');
  if (authType === 'simple' && !bindDn) ctx.note(`${path}.config.authType`, 'simple bind without a bindDn');
  const classes = (s.text('userObjectClasses') ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  const usesKerberos = s.flag('allowKerberosAuthentication', false) === true;
  const provider = compact({
    name,
    enabled: s.flag('enabled', true),
    priority: s.number('priority', 0),
    vendor: s.choice('vendor', ['ad', 'rhds', 'tivoli', 'edirectory'], 'other'),
    connectionUrl: s.text('connectionUrl'),
    bindDn: authType === 'simple' ? bindDn : undefined,
    bindCredentialRef:
      authType === 'simple' && bindDn
        ? ctx.secret(secretName(ctx.realm, 'ldap', name), 'bindCredential', password)
        : undefined,
    usersDn: s.text('usersDn'),
    usernameAttribute: s.text('usernameLDAPAttribute', 'uid'),
    rdnAttribute: s.text('rdnLDAPAttribute', 'uid'),
    uuidAttribute: s.text('uuidLDAPAttribute', 'entryUUID'),
    userObjectClasses: classes.join(',') === 'inetOrgPerson,organizationalPerson' ? undefined : classes,
    customUserSearchFilter: s.text('customUserSearchFilter'),
    searchScope: s.text('searchScope', '1') === '2' ? 'Subtree' : undefined,
    editMode: s.choice('editMode', ['WRITABLE', 'UNSYNCED'], 'READ_ONLY'),
    importEnabled: s.flag('importEnabled', true),
    syncRegistrations: s.flag('syncRegistrations', false),
    fullSyncPeriodSeconds: s.number('fullSyncPeriod', -1),
    changedSyncPeriodSeconds: s.number('changedSyncPeriod', -1),
    batchSizeForSync: s.number('batchSizeForSync', 1000),
    pagination: s.flag('pagination', true),
    connectionPooling: s.flag('connectionPooling', true),
    connectionTimeoutMs: s.number('connectionTimeout'),
    readTimeoutMs: s.number('readTimeout'),
    startTls: s.flag('startTls', false),
    useTruststoreSpi: s.choice('useTruststoreSpi', ['never'], 'always'),
    trustEmail: s.flag('trustEmail', false),
    kerberos: usesKerberos ? kerberosIntegration(ctx, s, name) : undefined,
    useKerberosForPasswordAuthentication: usesKerberos
      ? s.flag('useKerberosForPasswordAuthentication', false)
      : undefined,
    mappers: importLdapMappers(ctx, path, component, s.all),
  });
  // Keycloak sets the Kerberos principal attribute itself when a provider is created without one.
  const principal = s.text('krbPrincipalAttribute');
  if (principal && principal !== (s.all.vendor === 'ad' ? 'userPrincipalName' : 'krb5PrincipalName'))
    ctx.note(`${path}.config.krbPrincipalAttribute`, 'a user federation setting the CRD has no field for');
  // Without Kerberos on, Keycloak ignores its settings (the console sends them all the same).
  const kerberosKeys = [
    'kerberosRealm',
    'serverPrincipal',
    'keyTab',
    'debug',
    'useKerberosForPasswordAuthentication',
  ];
  s.rest(['lastSync', ...(usesKerberos ? [] : kerberosKeys)]);
  if (usesKerberos && !objectAt(provider.kerberos).keytab)
    ctx.note(`${path}.config.keyTab`, 'Kerberos without a keytab');
  return provider;
}

/** The provider's mappers but those Keycloak creates itself (noted when one of those was changed beyond what the
 * CRD's mapper types can say, or removed, which the CRD cannot do). */
function importLdapMappers(ctx: ImportContext, path: string, component: Json, config: Config) {
  const builtIn = keycloakLdapMappers(config, ctx.major);
  const mappers = listAt(objectAt(component.subComponents)[ldapMapperType]);
  const out: Json[] = [];
  for (const m of mappers) {
    const name = String(m.name);
    const type = String(m.providerId);
    const settings = firstValues(m.config);
    const own = builtIn.get(name);
    if (own && own.providerId === type && sameSettings(own.config, settings)) continue;
    if (!ldapMapperTypes.has(type)) {
      ctx.note(`${path}.mappers[${name}]`, `LDAP mapper type ${type} has no field in the CRD`);
      continue;
    }
    out.push(compact({ name, type, config: settings }));
  }
  for (const name of builtIn.keys())
    if (!mappers.some((m) => m.name === name))
      ctx.note(
        `${path}.mappers[${name}]`,
        'a mapper Keycloak creates with an LDAP provider was removed: the CRD cannot remove it',
      );
  return out;
}

const sameSettings = (a: Config, b: Config) =>
  Object.keys({ ...a, ...b }).every((k) => (a[k] ?? '') === (b[k] ?? ''));
