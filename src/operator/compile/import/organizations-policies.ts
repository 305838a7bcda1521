// Organizations (Keycloak 26) and client policies with their profiles: plain lists in the export, the same shape
// in the CRD. An organization's members and linked identity providers have no field and are noted.
import { compact, type ImportContext, type Json, listAt, objectAt, type RealmSpec } from './context.ts';

type Organization = NonNullable<RealmSpec['organizations']>[number];

export const organizationsPoliciesKeys = [
  'organizations',
  'organizationsEnabled',
  'clientProfiles',
  'clientPolicies',
];

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

export function importOrganizationsPolicies(exp: Json, ctx: ImportContext): Partial<RealmSpec> {
  const organizations = listAt(exp.organizations).map((o) => {
    const path = `organizations[${String(o.name)}]`;
    for (const field of ['members', 'identityProviders'])
      if (listAt(o[field]).length)
        ctx.note(`${path}.${field}`, `an organization's ${field} have no field`, listAt(o[field]).length);
    const attributes = objectAt(o.attributes);
    return compact({
      name: String(o.name),
      alias: o.alias && o.alias !== o.name ? o.alias : undefined,
      description: text(o.description),
      enabled: o.enabled === false ? false : undefined,
      redirectUrl: text(o.redirectUrl),
      domains: listAt(o.domains).map((d) =>
        compact({ name: String(d.name), verified: d.verified === true ? true : undefined }),
      ),
      attributes: Object.keys(attributes).length ? attributes : undefined,
    }) as Organization;
  });
  // Declaring organizations turns the feature on; on without any listed (the partial export leaves them out) has no
  // field of its own.
  if (exp.organizationsEnabled === true && !organizations.length)
    ctx.note(
      'organizationsEnabled',
      'organizations on, but the export lists none: declare spec.organizations (the partial export leaves them out)',
    );
  const profiles = listAt(objectAt(exp.clientProfiles).profiles).map((p) =>
    compact({
      name: String(p.name),
      description: text(p.description),
      executors: listAt(p.executors).map((e) =>
        compact({ executor: String(e.executor), configuration: objectAt(e.configuration) }),
      ),
    }),
  );
  const policies = listAt(objectAt(exp.clientPolicies).policies).map((p) =>
    compact({
      name: String(p.name),
      description: text(p.description),
      enabled: p.enabled === false ? false : undefined,
      conditions: listAt(p.conditions).map((c) =>
        compact({ condition: String(c.condition), configuration: objectAt(c.configuration) }),
      ),
      profiles: Array.isArray(p.profiles) ? p.profiles.map(String) : [],
    }),
  );
  return compact({ organizations, clientPolicies: compact({ profiles, policies }) }) as Partial<RealmSpec>;
}
