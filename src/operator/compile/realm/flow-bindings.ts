// The realm's authentication flow bindings (spec.authenticationFlowBindings): RealmRepresentation fields naming a
// top-level flow by alias, each back to Keycloak's built-in flow when removed.
import { defined, type Fields, type RealmSpec } from './section.ts';

/** The binding's spec name -> Keycloak's realm field. */
export const flowBindingFields = {
  browser: 'browserFlow',
  registration: 'registrationFlow',
  directGrant: 'directGrantFlow',
  resetCredentials: 'resetCredentialsFlow',
  clientAuthentication: 'clientAuthenticationFlow',
  docker: 'dockerAuthenticationFlow',
} as const;

/** Keycloak's built-in flow bound to each of a new realm's bindings. */
export const flowBindingDefaults: Fields = {
  browserFlow: 'browser',
  registrationFlow: 'registration',
  directGrantFlow: 'direct grant',
  resetCredentialsFlow: 'reset credentials',
  clientAuthenticationFlow: 'clients',
  dockerAuthenticationFlow: 'docker auth',
};

export function compileFlowBindings(spec: RealmSpec): Fields {
  const bindings = spec.authenticationFlowBindings ?? {};
  return defined(
    Object.fromEntries(
      Object.entries(flowBindingFields).map(([name, field]) => [
        field,
        bindings[name as keyof typeof flowBindingFields],
      ]),
    ),
  );
}
