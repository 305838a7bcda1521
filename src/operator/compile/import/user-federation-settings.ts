// Reading one user storage component's settings (first values of Keycloak's lists): each field the CRD has is
// read once, left out when it equals what the operator sends for a silent spec, and noted when the CRD cannot hold
// its value; what no field reads is noted unless it is Keycloak's default (what the admin console sends).
import type { ImportContext } from './context.ts';

type Config = Record<string, string>;

/** Settings the admin console sends that the CRDs have no field for, with the value that changes nothing. */
const unreadDefaults: Config = {
  cachePolicy: 'DEFAULT',
  validatePasswordPolicy: 'false',
  connectionTrace: 'false',
  usePasswordModifyExtendedOp: 'false',
  allowKerberosAuthentication: 'false',
  useKerberosForPasswordAuthentication: 'false',
  debug: 'false',
};

/** The mapper types spec.userFederation.ldap[].mappers accepts. */
export const ldapMapperTypes = new Set([
  'user-attribute-ldap-mapper',
  'full-name-ldap-mapper',
  'group-ldap-mapper',
  'role-ldap-mapper',
  'hardcoded-ldap-role-mapper',
  'hardcoded-ldap-group-mapper',
  'hardcoded-ldap-attribute-mapper',
  'hardcoded-attribute-mapper',
  'certificate-ldap-mapper',
  'msad-user-account-control-mapper',
  'msad-lds-user-account-control-mapper',
]);

export type Settings = ReturnType<typeof readSettings>;

/** A reader of `config` (at `path` in the export) that records which settings were read. */
export function readSettings(ctx: ImportContext, path: string, config: Config) {
  const read = new Set<string>();
  const value = (key: string) => {
    read.add(key);
    const v = config[key];
    return v === undefined || v === '' ? undefined : v;
  };
  const cannot = (key: string, what: string) => ctx.note(`${path}.${key}`, `${what}: the CRD cannot say it`);
  return {
    all: config,
    has: (key: string) => value(key) !== undefined,
    /** The text, unless it is `dflt`. */
    text(key: string, dflt?: string) {
      const v = value(key);
      return v === dflt ? undefined : v;
    },
    /** true or false when it differs from `dflt`. */
    flag(key: string, dflt: boolean) {
      const v = value(key);
      if (v === undefined || v === String(dflt)) return undefined;
      if (v === 'true' || v === 'false') return v === 'true';
      cannot(key, `"${v}" is not true or false`);
      return undefined;
    },
    /** The integer when it differs from `dflt`. */
    number(key: string, dflt?: number) {
      const v = value(key);
      if (v === undefined || v === String(dflt)) return undefined;
      if (/^-?\d+$/.test(v)) return Number(v);
      cannot(key, `"${v}" is not a whole number`);
      return undefined;
    },
    /** One of `allowed` (`dflt` left out). */
    choice<T extends string>(key: string, allowed: readonly T[], dflt?: string): T | undefined {
      const v = value(key);
      if (v === undefined || v === dflt) return undefined;
      if ((allowed as readonly string[]).includes(v)) return v as T;
      cannot(key, `"${v}" is not one of ${[dflt, ...allowed].filter(Boolean).join(', ')}`);
      return undefined;
    },
    /** Notes every setting not read (but `ignored`) that is not Keycloak's default. */
    rest(ignored: readonly string[]) {
      for (const [key, v] of Object.entries(config))
        if (!read.has(key) && !ignored.includes(key) && v !== '' && v !== unreadDefaults[key])
          ctx.note(`${path}.${key}`, 'a user federation setting the CRD has no field for');
    },
  };
}
