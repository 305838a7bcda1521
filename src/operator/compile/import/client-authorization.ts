// A client's authorization services (its export's authorizationSettings) as spec.authorization: the inverse of
// compile/client-authorization.ts. Policies of the types the CRD has become policies, resource and scope policies
// permissions; a policy of another type (Keycloak's JavaScript "Default Policy") is noted.
import type { IdentityClient } from '../../../../generated/types/crds/identityclient.ts';
import { timeNumbers } from '../client-authorization.ts';
import { compact, type ImportContext, type Json, listAt, objectAt, strings } from './context.ts';

type Authorization = NonNullable<IdentityClient['spec']['authorization']>;

const policyTypes = new Set([
  'role',
  'group',
  'client',
  'user',
  'time',
  'aggregate',
  'client-scope',
  'regex',
]);

/** A JSON list in a policy's config (Keycloak keeps them as strings). */
function parsed(raw: unknown): Json[] | string[] {
  try {
    const v = JSON.parse(String(raw ?? '[]'));
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}
const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
const notDefault = <T>(v: T, d: T) => (v === undefined || v === d ? undefined : v);

function policy(p: Json, config: Json): Json {
  const entries = (key: string) => parsed(config[key]) as Json[];
  const byType: Record<string, Json> = {
    role: {
      roles: entries('roles').map((r) =>
        compact({ role: String(r.id), required: r.required === true ? true : undefined }),
      ),
      fetchRoles: config.fetchRoles === 'true' ? true : undefined,
    },
    group: {
      groups: entries('groups').map((g) =>
        compact({ path: String(g.path), extendChildren: g.extendChildren === true ? true : undefined }),
      ),
      groupsClaim: text(config.groupsClaim),
    },
    client: { clients: strings(parsed(config.clients)) },
    user: { users: strings(parsed(config.users)) },
    'client-scope': {
      clientScopes: entries('clientScopes').map((s) =>
        compact({ scope: String(s.id), required: s.required === true ? true : undefined }),
      ),
    },
    time: {
      time: compact(
        Object.fromEntries(
          Object.entries(config)
            .filter(
              ([k, v]) => v !== '' && (timeNumbers.includes(k) || k === 'notBefore' || k === 'notOnOrAfter'),
            )
            .map(([k, v]) => [k, timeNumbers.includes(k) ? Number(v) : v]),
        ),
      ),
    },
    regex: {
      regex: compact({
        targetClaim: String(config.targetClaim ?? ''),
        pattern: String(config.pattern ?? ''),
        targetContextAttributes: config.targetContextAttributes === 'true' ? true : undefined,
      }),
    },
    aggregate: { policies: strings(parsed(config.applyPolicies)) },
  };
  return compact({
    name: String(p.name),
    description: text(p.description),
    type: p.type,
    logic: notDefault(p.logic, 'POSITIVE'),
    decisionStrategy: notDefault(p.decisionStrategy, 'UNANIMOUS'),
    ...byType[String(p.type)],
  });
}

export function importAuthorization(settings: unknown, ctx: ImportContext, path: string): Authorization {
  const s = objectAt(settings);
  const policies: Json[] = [];
  const permissions: Json[] = [];
  for (const p of listAt(s.policies)) {
    const config = objectAt(p.config);
    const type = String(p.type);
    if (type === 'resource' || type === 'scope')
      permissions.push(
        compact({
          name: String(p.name),
          description: text(p.description),
          type,
          resources: strings(parsed(config.resources)),
          scopes: type === 'scope' ? strings(parsed(config.scopes)) : undefined,
          policies: strings(parsed(config.applyPolicies)),
          decisionStrategy: notDefault(p.decisionStrategy, 'UNANIMOUS'),
        }),
      );
    else if (policyTypes.has(type)) policies.push(policy(p, config));
    else
      ctx.note(
        `${path}.authorizationSettings.policies[${String(p.name)}]`,
        `a policy of type ${type} has no field in the CRD`,
      );
  }
  return compact({
    policyEnforcementMode: notDefault(s.policyEnforcementMode, 'ENFORCING'),
    decisionStrategy: notDefault(s.decisionStrategy, 'UNANIMOUS'),
    allowRemoteResourceManagement: s.allowRemoteResourceManagement === true ? true : undefined,
    scopes: listAt(s.scopes).map((x) =>
      compact({ name: String(x.name), displayName: text(x.displayName), iconUri: text(x.iconUri) }),
    ),
    resources: listAt(s.resources).map((r) =>
      compact({
        name: String(r.name),
        displayName: text(r.displayName),
        type: text(r.type),
        uris: strings(r.uris),
        scopes: listAt(r.scopes).map((x) => String(x.name)),
        ownerManagedAccess: r.ownerManagedAccess === true ? true : undefined,
        attributes: objectAt(r.attributes),
      }),
    ),
    policies,
    permissions,
  }) as Authorization;
}
