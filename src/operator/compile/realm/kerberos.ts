// An IdentityRealm's Kerberos user federation (spec.userFederation.kerberos) as Keycloak components, and the
// Kerberos settings of an LDAP provider (spec.userFederation.ldap[].kerberos). Keycloak keeps a component's
// settings as lists of strings and echoes exactly the keys it was sent, so every managed setting is sent
// explicitly (Keycloak's default when the spec is silent). A keytab is named, never inlined: its path is the one
// the realm's IdentityServer declares (compile/kerberos-keytabs.ts); a name the server does not declare is refused.
import type {
  KerberosIntegration,
  KerberosProvider,
  UserCachePolicy,
} from '../../../../generated/types/crds/federation.ts';
import { ValidationError } from '../../../core/errors.ts';
import { userStorageType } from './user-federation.ts';

type Settings = Record<string, string | number | boolean | undefined>;

const asConfig = (settings: Settings): Record<string, string[]> =>
  Object.fromEntries(
    Object.entries(settings)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, [String(v)]]),
  );

/** The path of keytab `name` on the server, or a ValidationError naming `field` and the declared keytabs. */
function keytabPath(keytabs: ReadonlyMap<string, string>, name: string, field: string): string {
  const path = keytabs.get(name);
  if (path !== undefined) return path;
  const declared = [...keytabs.keys()].sort();
  throw new ValidationError(
    `${field}: keytab "${name}" is not declared by the realm's IdentityServer (${declared.length ? `it declares ${declared.join(', ')}` : 'it declares none'}); add it to the server's spec.kerberos.keytabs or name a declared one`,
  );
}

/** Keycloak's cache policy settings (CacheableStorageProviderModel). */
function cacheSettings(policy: UserCachePolicy | undefined): Settings {
  return {
    cachePolicy: policy?.policy ?? 'DEFAULT',
    evictionDay: policy?.evictionDay,
    evictionHour: policy?.evictionHour,
    evictionMinute: policy?.evictionMinute,
    maxLifespan: policy?.maxLifespanMs,
  };
}

/** One Kerberos provider as a Keycloak component under the realm `parentId`. */
export function compileKerberosProvider(
  parentId: string,
  k: KerberosProvider,
  index: number,
  keytabs: ReadonlyMap<string, string>,
): Record<string, unknown> {
  const field = `spec.userFederation.kerberos[${index}] (${k.name}).keytab`;
  const config = asConfig({
    enabled: k.enabled ?? true,
    priority: k.priority ?? 0,
    kerberosRealm: k.kerberosRealm,
    serverPrincipal: k.serverPrincipal,
    keyTab: keytabPath(keytabs, k.keytab, field),
    debug: k.debug ?? false,
    allowPasswordAuthentication: k.allowPasswordAuthentication ?? false,
    editMode: k.editMode ?? 'READ_ONLY',
    updateProfileFirstLogin: k.updateProfileFirstLogin ?? false,
    ...cacheSettings(k.cachePolicy),
  });
  return { name: k.name, providerId: 'kerberos', providerType: userStorageType, parentId, config };
}

/** The Kerberos settings of an LDAP provider (none without `kerberos`: Keycloak then treats them as off). */
export function ldapKerberosConfig(
  kerberos: KerberosIntegration | undefined,
  usePassword: boolean | undefined,
  field: string,
  keytabs: ReadonlyMap<string, string>,
): Record<string, string[]> {
  if (!kerberos) {
    if (usePassword)
      throw new ValidationError(
        `${field}.useKerberosForPasswordAuthentication: needs ${field}.kerberos (the Kerberos realm, principal and keytab)`,
      );
    return {};
  }
  return asConfig({
    allowKerberosAuthentication: true,
    kerberosRealm: kerberos.kerberosRealm,
    serverPrincipal: kerberos.serverPrincipal,
    keyTab: keytabPath(keytabs, kerberos.keytab, `${field}.kerberos.keytab`),
    debug: kerberos.debug ?? false,
    useKerberosForPasswordAuthentication: usePassword ?? false,
  });
}

/** Refuses a Kerberos provider named like an LDAP provider: both are components of the realm keyed by name. */
export function checkProviderNames(ldap: readonly { name: string }[], kerberos: readonly { name: string }[]) {
  const ldapNames = new Set(ldap.map((p) => p.name));
  for (const [i, k] of kerberos.entries())
    if (ldapNames.has(k.name))
      throw new ValidationError(
        `spec.userFederation.kerberos[${i}].name: "${k.name}" is also the name of an LDAP provider; user storage providers are keyed by name, so give each a different one`,
      );
}
