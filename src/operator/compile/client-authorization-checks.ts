// What is wrong with spec.authorization before anything is sent, one message per problem: every name a resource,
// policy or permission refers to must be declared in the same section (Keycloak would fail the write with an
// internal error, or create a scope a resource names by itself), and an aggregate cannot apply itself.
import type { IdentityClient } from '../../../generated/types/crds/identityclient.ts';

/** The problems of `client`'s spec.authorization (empty: none). */
export function authorizationProblems(client: IdentityClient): string[] {
  const a = client.spec.authorization;
  if (!a) return [];
  const scopes = new Set((a.scopes ?? []).map((s) => s.name));
  const resources = new Set((a.resources ?? []).map((r) => r.name));
  const policies = new Set((a.policies ?? []).map((p) => p.name));
  const problems: string[] = [];
  const check = (field: string, names: readonly string[] | undefined, known: Set<string>, what: string) => {
    for (const name of names ?? [])
      if (!known.has(name))
        problems.push(
          `${field}: ${what} "${name}" is not declared in spec.authorization.${what === 'policy' ? 'policies' : `${what}s`}; declare it there or fix the name`,
        );
  };
  for (const r of a.resources ?? [])
    check(`spec.authorization.resources[${r.name}].scopes`, r.scopes, scopes, 'scope');
  for (const p of a.policies ?? []) {
    if (p.type !== 'aggregate') continue;
    check(`spec.authorization.policies[${p.name}].policies`, p.policies, policies, 'policy');
    if (p.policies?.includes(p.name))
      problems.push(
        `spec.authorization.policies[${p.name}].policies: an aggregate policy cannot apply itself`,
      );
  }
  for (const p of a.permissions ?? []) {
    const at = `spec.authorization.permissions[${p.name}]`;
    if (policies.has(p.name))
      problems.push(
        `${at}.name: a policy has the same name; policies and permissions share one namespace in Keycloak`,
      );
    check(`${at}.resources`, p.resources, resources, 'resource');
    check(`${at}.scopes`, p.scopes, scopes, 'scope');
    check(`${at}.policies`, p.policies, policies, 'policy');
  }
  return problems;
}
