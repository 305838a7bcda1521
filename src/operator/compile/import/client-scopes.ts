// Realm client scopes with their protocol mappers, and the realm's default and optional scope links: the inverse
// of keycloak/collections/client-scopes.ts. Keycloak's built-in scopes are left out (noted when changed); a link
// Keycloak made for a new realm is left out, one taken away is noted (the CRD only adds links).
import { compact, type ImportContext, type Json, listAt, type RealmSpec, strings } from './context.ts';
import { noteChanged } from './keycloak-defaults.ts';

type Scope = NonNullable<RealmSpec['clientScopes']>[number];

export const clientScopesKeys = ['clientScopes', 'defaultDefaultClientScopes', 'defaultOptionalClientScopes'];

/** A protocol mapper as the CRDs write it (the same shape for scopes and clients). */
export function importMapper(m: Json, protocol = 'openid-connect') {
  const config = m.config as Record<string, string> | undefined;
  return compact({
    name: String(m.name),
    protocolMapper: String(m.protocolMapper),
    protocol: m.protocol && m.protocol !== protocol ? m.protocol : undefined,
    config: config && Object.keys(config).length ? config : undefined,
  }) as { name: string; protocolMapper: string };
}

export function importClientScopes(exp: Json, ctx: ImportContext): Partial<RealmSpec> {
  const builtIn = new Map(listAt(ctx.defaults.clientScopes).map((s) => [String(s.name), s]));
  const scopes: Scope[] = [];
  for (const scope of listAt(exp.clientScopes)) {
    const name = String(scope.name);
    const known = builtIn.get(name);
    if (known) {
      noteChanged(ctx, `clientScopes[${name}]`, scope, known);
      continue;
    }
    const attributes = scope.attributes as Record<string, string> | undefined;
    scopes.push(
      compact({
        name,
        description: scope.description || undefined,
        protocol: scope.protocol === 'saml' ? 'saml' : undefined,
        attributes: attributes && Object.keys(attributes).length ? attributes : undefined,
        protocolMappers: listAt(scope.protocolMappers).map((m) => importMapper(m)),
      }) as Scope,
    );
  }
  const links = (kind: 'default' | 'optional', field: string) => {
    const now = strings(exp[field]);
    const before = strings(ctx.defaults[field]);
    const gone = before.filter((n) => !now.includes(n));
    if (field in exp && gone.length)
      ctx.note(
        field,
        `Keycloak's ${kind} client scopes taken away (${gone.join(', ')}): the CRD only adds links`,
        gone.length,
      );
    return now.filter((n) => !before.includes(n));
  };
  return compact({
    clientScopes: scopes,
    realmDefaultClientScopes: compact({
      default: links('default', 'defaultDefaultClientScopes'),
      optional: links('optional', 'defaultOptionalClientScopes'),
    }),
  }) as Partial<RealmSpec>;
}
