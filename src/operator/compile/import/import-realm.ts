// `realmforge import`'s pure core: a realm export (Keycloak's RealmRepresentation, as kc.sh export, the admin
// console's partial export and keycloak-config-cli write it) in, the IdentityRealm and IdentityClients that say
// the same out, with the Secrets they refer to and what no CRD field can say. Each section has its own file; what
// no section reads is compared with Keycloak's default realm and noted when it differs.
import type { IdentityClient } from '../../../../generated/types/crds/identityclient.ts';
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { secretMask } from '../realm/identity-providers.ts';
import { authenticationKeys, importAuthentication } from './authentication.ts';
import { clientScopesKeys, importClientScopes } from './client-scopes.ts';
import { importClients } from './clients.ts';
import {
  compact,
  type ImportContext,
  type Json,
  type RealmSpec,
  type SecretRef,
  type Unexpressed,
} from './context.ts';
import { realmExport } from './export-shape.ts';
import { identityProvidersKeys, importIdentityProviders, secretName } from './identity-providers.ts';
import { keycloakDefaultRealm } from './keycloak-defaults.ts';
import { importAttributes, noteLeftovers } from './leftovers.ts';
import { importOrganizationsPolicies, organizationsPoliciesKeys } from './organizations-policies.ts';
import { importPolicies, policiesKeys } from './policies.ts';
import { importRealmFields, realmFieldsKeys } from './realm-fields.ts';
import { importRolesGroups, rolesGroupsKeys } from './roles-groups.ts';
import { importSmtp } from './smtp.ts';
import { importUserProfile } from './user-profile.ts';

export type ImportOptions = {
  /** The namespace of the IdentityClients (granted by the realm). */
  readonly namespace: string;
  /** The namespace of the IdentityRealm (default: `namespace`). */
  readonly realmNamespace?: string;
  /** The IdentityServer the realm lives on. */
  readonly server: { readonly name: string; readonly namespace?: string };
  /** Where the export came from, for messages (a file name, or the Keycloak URL). */
  readonly source: string;
  /** The realm to take from a file holding several. */
  readonly realm?: string;
};

export type ImportResult = {
  readonly realm: IdentityRealm;
  readonly clients: IdentityClient[];
  readonly secrets: SecretRef[];
  readonly unexpressed: Unexpressed[];
};

/** The sections, in the order the spec lists them; each claims the export's keys it reads. */
const sections: [readonly string[], (exp: Json, ctx: ImportContext) => Partial<RealmSpec>][] = [
  [realmFieldsKeys, importRealmFields],
  [['smtpServer'], importSmtp],
  [rolesGroupsKeys, importRolesGroups],
  [identityProvidersKeys, importIdentityProviders],
  [policiesKeys, importPolicies],
  [['attributes'], importAttributes],
  [clientScopesKeys, importClientScopes],
  [organizationsPoliciesKeys, importOrganizationsPolicies],
  [authenticationKeys, importAuthentication],
  [[], importUserProfile],
];

/** Keys read by no section but said by the realm's identity or by the client import, or that Keycloak derives
 * (the OTP apps it lists follow the OTP policy). */
const alsoClaimed = ['id', 'realm', 'keycloakVersion', 'clients', 'otpSupportedApplications'];

export function importRealm(input: unknown, options: ImportOptions): ImportResult {
  const exp = realmExport(input, options.source, options.realm);
  const name = String(exp.realm);
  const major = Number.parseInt(String(exp.keycloakVersion ?? '26'), 10) || 26;
  const realmNamespace = options.realmNamespace ?? options.namespace;
  const unexpressed: Unexpressed[] = [];
  const secrets: SecretRef[] = [];
  const ctx: ImportContext = {
    realm: name,
    major,
    defaults: keycloakDefaultRealm(major),
    note: (path, why, count = 1) => unexpressed.push({ path, count, why }),
    secret: (secret, key, value, of = 'realm') => {
      const known = typeof value === 'string' && value !== '' && value !== secretMask;
      const namespace = of === 'client' ? options.namespace : realmNamespace;
      secrets.push({ name: secret, key, namespace, ...(known ? { value } : {}) });
      return { name: secret, key };
    },
  };
  let spec: Json = {};
  const claimed = new Set(alsoClaimed);
  for (const [keys, section] of sections) {
    spec = { ...spec, ...section(exp, ctx) };
    for (const key of keys) claimed.add(key);
  }
  const resourceName = secretName(name) || 'realm';
  const clients = importClients(exp, ctx, {
    namespace: options.namespace,
    realmRef: { name: resourceName, namespace: realmNamespace },
  });
  noteLeftovers(exp, ctx, claimed);
  const realm: IdentityRealm = {
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityRealm',
    metadata: { name: resourceName, namespace: realmNamespace },
    spec: compact({
      serverRef: compact({ name: options.server.name, namespace: options.server.namespace }),
      realmName: name === resourceName ? undefined : name,
      clientAuthorizationGrants: clients.length ? [options.namespace] : undefined,
      ...spec,
      adoptExisting: true,
    }) as RealmSpec,
  };
  return { realm, clients, secrets, unexpressed };
}
