// A realm export as Keycloak writes it, checked before anything is read: one realm (an object, or the one realm
// of a list), a name Keycloak and the CRD accept, only RealmRepresentation's sections, each of the JSON type
// Keycloak gives it. A problem is an error naming the JSON path; nothing is half imported.
import { ValidationError } from '../../../core/errors.ts';
import { isObject, type Json } from './context.ts';
import { keycloakDefaultRealm } from './keycloak-defaults.ts';

/** RealmRepresentation's fields beyond those a new realm's export has (Keycloak 25 and 26). */
const otherSections = [
  'users',
  'federatedUsers',
  'localizationTexts',
  'organizations',
  'defaultGroups',
  'defaultRoles',
  'displayNameHtml',
  'eventsExpiration',
  'passwordPolicy',
  'supportedLocales',
  'defaultLocale',
  'loginTheme',
  'accountTheme',
  'adminTheme',
  'emailTheme',
  'displayName',
  'protocolMappers',
  'userFederationProviders',
  'userFederationMappers',
  'adminPermissionsClient',
  'webAuthnPolicyPasswordlessPasskeysEnabled',
  'id',
  'realm',
  'keycloakVersion',
  'social',
  'socialProviders',
  'applications',
  'oauthClients',
  'clientTemplates',
  'codeSecret',
  'privateKey',
  'publicKey',
  'certificate',
  'passwordCredentialGrantAllowed',
  'updateProfileOnInitialSocialLogin',
  'applicationScopeMappings',
  'bruteForceStrategy',
  'maxSecondaryAuthFailures',
  'organizationsEnabled',
  'verifiableCredentialsEnabled',
  'adminPermissionsEnabled',
  'scimApiEnabled',
];

/** Every section Keycloak knows, with the JSON type a new realm's export gives it ('any' when it has none). */
const sections: Map<string, string> = new Map([
  ...otherSections.map((k) => [k, 'any'] as const),
  ...[25, 26].flatMap((major) =>
    Object.entries(keycloakDefaultRealm(major)).map(([k, v]) => [k, typeOf(v)] as const),
  ),
]);

function typeOf(v: unknown): string {
  if (Array.isArray(v)) return 'list';
  if (v === null) return 'any';
  return typeof v === 'object' ? 'object' : typeof v;
}

/** Keycloak's rule for a realm name, narrowed to what the CRD's realmName accepts. */
const realmNamePattern = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** The one realm of `input` (`pick`: its name, needed when the file holds several). */
export function realmExport(input: unknown, source: string, pick?: string): Json {
  let realm: unknown = input;
  if (Array.isArray(input)) {
    const names = input.map((r) => (isObject(r) ? String(r.realm) : '?'));
    realm = pick
      ? input.find((r) => isObject(r) && r.realm === pick)
      : input.length === 1
        ? input[0]
        : undefined;
    if (!realm)
      throw new ValidationError(
        pick
          ? `${source}: holds no realm "${pick}" (it holds ${names.join(', ') || 'none'})`
          : `${source}: holds ${input.length} realms (${names.join(', ')}): name one with --realm`,
      );
  }
  if (!isObject(realm))
    throw new ValidationError(`${source}: not a realm export: expected a JSON object with a "realm" field`);
  checkShape(realm, source);
  return withoutMarks(withoutOperatorIdentity(realm)) as Json;
}

/** The export without the operator's own identity in a realm it made (keycloak/realm-identity.ts: a client marked
 * `realmforge.dev/owner: operator`, its service-account user and roles): bookkeeping, as the marks are. */
export function withoutOperatorIdentity(exp: Json): Json {
  const clients = Array.isArray(exp.clients) ? (exp.clients as Json[]) : undefined;
  const ours = new Set(
    (clients ?? [])
      .filter((c) => isObject(c.attributes) && (c.attributes as Json)[`${markPrefix}owner`] === 'operator')
      .map((c) => String(c.clientId)),
  );
  if (!ours.size) return exp;
  const roles = isObject(exp.roles) ? (exp.roles as Json) : undefined;
  const clientRoles = roles && isObject(roles.client) ? (roles.client as Json) : undefined;
  const out: Json = {
    ...exp,
    clients: clients?.filter((c) => !ours.has(String(c.clientId))),
    users: Array.isArray(exp.users)
      ? (exp.users as Json[]).filter((u) => !ours.has(String(u.serviceAccountClientId)))
      : undefined,
    ...(clientRoles
      ? {
          roles: {
            ...roles,
            client: Object.fromEntries(Object.entries(clientRoles).filter(([id]) => !ours.has(id))),
          },
        }
      : {}),
  };
  // A realm whose only user was the operator's service account exports no users at all.
  if (!(out.users as Json[] | undefined)?.length) delete out.users;
  return out;
}

/** The export without the operator's marks (realmforge.dev/ attributes and config entries): a realm the operator
 * already manages imports as any other, and the marks are never declared (the CRDs refuse them). */
function withoutMarks(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutMarks);
  if (!isObject(v)) return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k]) => !k.startsWith(markPrefix))
      .map(([k, x]) => [k, withoutMarks(x)]),
  );
}

const markPrefix = 'realmforge.dev/';

function checkShape(exp: Json, source: string): void {
  const problems: string[] = [];
  const name = exp.realm;
  if (typeof name !== 'string' || name === '')
    problems.push('realm: missing; a realm export names its realm');
  else if (name.length > 255 || !realmNamePattern.test(name))
    problems.push(
      `realm: "${name}" is not a realm name Keycloak and the CRD accept (letters, digits, '_', '.', '-', starting with a letter or digit, at most 255)`,
    );
  else if (name === 'master')
    problems.push(
      "realm: master is Keycloak's own realm, which the operator never manages: export another realm",
    );
  for (const [key, value] of Object.entries(exp)) {
    const expected = sections.get(key);
    if (!expected)
      problems.push(`${key}: not a section of a Keycloak realm export (a typo, or a file of another kind?)`);
    else if (expected !== 'any' && value !== null && typeOf(value) !== expected)
      problems.push(
        `${key}: expected ${expected === 'list' ? 'a list' : expected === 'object' ? 'an object' : `a ${expected}`}, found ${typeOf(value)}`,
      );
  }
  for (const [list, key] of [
    ['clients', 'clientId'],
    ['clientScopes', 'name'],
    ['identityProviders', 'alias'],
    ['authenticationFlows', 'alias'],
    ['groups', 'name'],
    ['requiredActions', 'alias'],
  ] as const) {
    const items = exp[list];
    if (!Array.isArray(items)) continue;
    items.forEach((item, i) => {
      if (!isObject(item) || typeof item[key] !== 'string' || item[key] === '')
        problems.push(`${list}[${i}]: expected an object with a "${key}"`);
    });
  }
  if (problems.length)
    throw new ValidationError(`${source}: not a realm export Keycloak would import`, { details: problems });
}
