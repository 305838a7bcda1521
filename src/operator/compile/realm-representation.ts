import type RealmRepresentation from '@keycloak/keycloak-admin-client/lib/defs/realmRepresentation.js';
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';

/** What a realm compile needs from the world: the SMTP password read from its Secret, when SMTP is set. */
export type RealmInputs = { readonly smtpPassword?: string };

/** The realm's name in Keycloak: spec.realmName, else metadata.name. */
export function realmNameOf(realm: IdentityRealm): string {
  return realm.spec.realmName ?? realm.metadata.name;
}

function smtpServer(realm: IdentityRealm, inputs: RealmInputs): Record<string, string> | undefined {
  const smtp = realm.spec.smtp;
  if (!smtp) return undefined;
  // Keycloak stores every SMTP setting as a string.
  const entries: [string, string | number | boolean | undefined][] = [
    ['host', smtp.host],
    ['port', smtp.port],
    ['from', smtp.from],
    ['fromDisplayName', smtp.fromDisplayName],
    ['replyTo', smtp.replyTo],
    ['ssl', smtp.ssl],
    ['starttls', smtp.starttls],
    ['auth', smtp.user ? true : undefined],
    ['user', smtp.user],
    ['password', smtp.passwordSecretRef ? inputs.smtpPassword : undefined],
  ];
  return Object.fromEntries(entries.filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]));
}

/**
 * The realm fields this resource manages, as a Keycloak RealmRepresentation: what is created in one call and
 * what drift detection compares. Fields the spec leaves out are absent, so Keycloak's own values are kept.
 */
export function compileRealm(realm: IdentityRealm, inputs: RealmInputs = {}): RealmRepresentation {
  const { spec } = realm;
  const representation: RealmRepresentation = {
    realm: realmNameOf(realm),
    enabled: spec.enabled ?? true,
    displayName: spec.displayName,
    ...spec.login,
    ...spec.tokens,
    loginTheme: spec.themes?.login,
    accountTheme: spec.themes?.account,
    adminTheme: spec.themes?.admin,
    emailTheme: spec.themes?.email,
    smtpServer: smtpServer(realm, inputs),
  };
  return Object.fromEntries(Object.entries(representation).filter(([, v]) => v !== undefined));
}
