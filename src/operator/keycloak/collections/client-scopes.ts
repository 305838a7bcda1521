// Realm-level client scopes as a managed collection, their protocol mappers as a sub-collection (ledger on the
// scope), and the realm's default and optional client scopes as two linked sets (ledgers on the realm). A scope
// the operator creates carries the owner attribute (a string: client-scope attributes are strings); Keycloak's
// built-in scopes (profile, email, roles, ...) and hand-made ones are never changed, but may be named as realm
// defaults. Links are added with PUT and removed with DELETE on the scope's id, so a link is resolved to the live
// scope first; a name that is no scope is an error naming the field.
import { RealmforgeError } from '../../../core/errors.ts';
import type { AdminClient } from '../admin-client.ts';
import type { Collection, Item } from './collection.ts';
import { mappersLedger } from './protocol-mappers.ts';

const enc = encodeURIComponent;

/** A declared scope as Keycloak represents it (its mapper ledger included; mappers are synced separately). */
export function clientScopeItem(scope: {
  name: string;
  description?: string;
  protocol?: string;
  attributes?: Record<string, string>;
  protocolMappers?: { name: string }[];
}): Item {
  const mappers = (scope.protocolMappers ?? []).map((m) => m.name).sort();
  return {
    name: scope.name,
    protocol: scope.protocol ?? 'openid-connect',
    ...(scope.description ? { description: scope.description } : {}),
    attributes: { ...scope.attributes, ...(mappers.length ? { [mappersLedger]: mappers.join(',') } : {}) },
  };
}

/** The client scopes of `realm` (the list answer carries each scope's protocol mappers). */
export function clientScopes(realm: string): Collection {
  const base = `/${enc(realm)}/client-scopes`;
  return {
    noun: 'client scope',
    field: 'spec.clientScopes',
    listPath: base,
    key: (s) => String(s.name),
    compared: { name: '', description: '', protocol: 'openid-connect', attributes: {} },
    write: { mode: 'each', createPath: base, itemPath: (live) => `${base}/${enc(String(live.id))}` },
  };
}

/** The realm's default (or optional) client scopes, linked by id; keys are scope names. */
export function realmScopeLinks(
  realm: string,
  kind: 'default' | 'optional',
  scopes: readonly Item[],
): Collection {
  const base = `/${enc(realm)}/default-${kind}-client-scopes`;
  const field = `spec.realmDefaultClientScopes.${kind}`;
  return {
    noun: `realm ${kind} client scope`,
    field,
    listPath: base,
    key: (s) => String(s.name),
    compared: { name: '' },
    write: { mode: 'link', itemPath: (item) => `${base}/${enc(String(item.id))}` },
    resolve: async (_admin: AdminClient, _ns: string, desired: Item) => {
      const scope = scopes.find((s) => s.name === desired.name);
      if (!scope)
        throw new RealmforgeError(
          'validation',
          `${field} names client scope "${String(desired.name)}", which does not exist in the realm: declare it in spec.clientScopes or fix the name`,
        );
      return { id: scope.id, name: scope.name };
    },
  };
}
