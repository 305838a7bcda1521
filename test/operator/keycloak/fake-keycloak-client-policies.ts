// The fake Keycloak's client profiles and policies (see fake-keycloak-admin.ts): each list is one document, read
// and replaced whole, as in Keycloak. As strict as Keycloak where the operator could be fooled: a realm profile
// named like a global one, an executor or condition the server lacks, and a policy applying a profile that does
// not exist are refused (400); a profile still applied by a policy cannot be removed.
import { copy, type Realm, reply } from './fake-keycloak-scopes.ts';

type Obj = Record<string, any>;

/** Keycloak's global profiles (a few of them), and the executors and conditions the fake server has. */
export const globalProfiles = ['fapi-1-baseline', 'fapi-1-advanced', 'fapi-2-security-profile'];
export const executorProviders = [
  'pkce-enforcer',
  'secret-rotation',
  'confidential-client',
  'holder-of-key-enforcer',
];
export const conditionProviders = [
  'client-access-type',
  'client-roles',
  'client-scopes',
  'any-client',
  'client-attributes',
];

/** .../client-policies/profiles or .../client-policies/policies. */
export function clientPoliciesRoute(
  realm: Realm,
  method: string,
  which: string | undefined,
  query: string,
  body: any,
) {
  realm.clientProfiles ??= [];
  realm.clientPolicies ??= [];
  const profiles = realm.clientProfiles as Obj[];
  const policies = realm.clientPolicies as Obj[];
  const known = (name: string) => globalProfiles.includes(name) || profiles.some((p) => p.name === name);
  if (which === 'profiles') {
    if (method === 'GET')
      return reply(200, {
        profiles: copy(profiles),
        ...(new URLSearchParams(query).get('include-global-profiles') === 'true'
          ? { globalProfiles: globalProfiles.map((name) => ({ name, executors: [] })) }
          : {}),
      });
    const next = (body.profiles ?? []) as Obj[];
    for (const p of next) {
      if (globalProfiles.includes(p.name))
        return reply(400, {
          error: 'invalid_request',
          error_description: `duplicated as a global profile: ${p.name}`,
        });
      for (const e of p.executors ?? [])
        if (!executorProviders.includes(e.executor))
          return reply(400, {
            error: 'invalid_request',
            error_description: `no executor provider ${e.executor}`,
          });
    }
    const used = policies
      .flatMap((p) => p.profiles)
      .find((n) => !globalProfiles.includes(n) && !next.some((p) => p.name === n));
    if (used)
      return reply(400, {
        error: 'invalid_request',
        error_description: `profile ${used} is used by a policy`,
      });
    realm.clientProfiles = copy(next);
    return reply(204);
  }
  if (which !== 'policies') return reply(404);
  if (method === 'GET') return reply(200, { policies: copy(policies) });
  for (const p of (body.policies ?? []) as Obj[]) {
    for (const c of p.conditions ?? [])
      if (!conditionProviders.includes(c.condition))
        return reply(400, {
          error: 'invalid_request',
          error_description: `no condition provider ${c.condition}`,
        });
    const missing = (p.profiles ?? []).find((n: string) => !known(n));
    if (missing)
      return reply(400, { error: 'invalid_request', error_description: `profile not found: ${missing}` });
  }
  realm.clientPolicies = copy(body.policies ?? []);
  return reply(204);
}

/** The grace (rotated-expiration-period) of the secret-rotation executor a realm policy applies to `client`, as
 * Keycloak decides it: an enabled policy whose client-attributes conditions all match, applying a profile with
 * that executor. Undefined: no such policy, so Keycloak drops a rotated secret on any admin update. */
export function rotationGraceFor(realm: Realm, client: Obj): number | undefined {
  const profiles = (realm.clientProfiles ?? []) as Obj[];
  for (const policy of (realm.clientPolicies ?? []) as Obj[]) {
    if (policy.enabled === false || !policy.conditions?.length) continue;
    const matches = policy.conditions.every((c: Obj) => {
      if (c.condition !== 'client-attributes') return false;
      const wanted = JSON.parse(c.configuration?.attributes ?? '[]') as { key: string; value: string }[];
      return wanted.every((w) => client.attributes?.[w.key] === w.value);
    });
    if (!matches) continue;
    for (const name of policy.profiles ?? []) {
      const executor = profiles
        .find((p) => p.name === name)
        ?.executors?.find((e: Obj) => e.executor === 'secret-rotation');
      if (executor) return Number(executor.configuration?.['rotated-expiration-period'] ?? 0);
    }
  }
  return undefined;
}
