// A client checked against what its Keycloak offers (keycloak/server-info.ts) before anything is written: a
// protocol mapper type the server does not have is refused naming the field, where Keycloak would have accepted
// the client and left the mapper silently inert (a client with mapper type no-such-mapper-type was Ready); so is a
// client authenticator it does not have.
import type { IdentityClient } from '../../../../generated/types/crds/identityclient.ts';
import { authorizationProblems } from '../../compile/client-authorization-checks.ts';
import { rotationSpecProblems } from '../../compile/secret-rotation.ts';
import { hasFeature, hasMapperType, hasProvider, type ServerInfo } from '../../keycloak/server-info.ts';

/** What the server cannot honour in `client`'s spec, one message per field (empty: nothing). */
export function serverRefusals(client: IdentityClient, info: ServerInfo): string[] {
  const on = info.version ? `Keycloak ${info.version}` : 'this Keycloak';
  const problems: string[] = [];
  const clientProtocol = client.spec.protocol ?? 'openid-connect';
  for (const m of client.spec.protocolMappers ?? []) {
    const protocol = m.protocol ?? 'openid-connect';
    if (protocol !== clientProtocol) {
      problems.push(
        `spec.protocolMappers[${m.name}].protocol: ${protocol} mapper on a ${clientProtocol} client; set protocol: ${clientProtocol} and a ${clientProtocol} mapper type`,
      );
      continue;
    }
    if (!hasMapperType(info, protocol, m.protocolMapper))
      problems.push(
        `spec.protocolMappers[${m.name}].protocolMapper: ${on} has no ${protocol} protocol mapper type "${m.protocolMapper}" (see the types in the admin console's "Add mapper > By configuration", e.g. oidc-audience-mapper)`,
      );
  }
  const method = client.spec.authentication?.method;
  if (method && !hasProvider(info, 'client-authenticator', method))
    problems.push(
      `spec.authentication.method: ${on} has no client authenticator "${method}" (its client-authenticator providers: ${[...(info.providers.get('client-authenticator') ?? [])].sort().join(', ') || 'none'})`,
    );
  problems.push(...rotationSpecProblems(client));
  if (client.spec.secretRotation?.grace) problems.push(...graceRefusals(info, on));
  problems.push(...authorizationRefusals(client, info, on));
  return problems;
}

/** What a grace needs of the server: Keycloak's rotated-secret support (the preview feature client-secret-rotation)
 * and the client-policy pieces the operator's grace policy is made of. */
function graceRefusals(info: ServerInfo, on: string): string[] {
  const problems: string[] = [];
  if (!hasFeature(info, 'client-secret-rotation'))
    problems.push(
      `spec.secretRotation.grace: ${on} runs without the preview feature client-secret-rotation, which keeps a previous secret working; enable it on the IdentityServer (option features: client-secret-rotation) or remove grace`,
    );
  for (const [spi, id] of [
    ['client-policy-executor', 'secret-rotation'],
    ['client-policy-condition', 'client-attributes'],
  ] as const)
    if (!hasProvider(info, spi, id))
      problems.push(
        `spec.secretRotation.grace: ${on} has no ${spi.replace('client-policy-', 'client policy ')} "${id}", which the grace is made of; remove grace`,
      );
  return problems;
}

/** spec.authorization against the server: the feature on, and every policy type one of its policy providers. */
function authorizationRefusals(client: IdentityClient, info: ServerInfo, on: string): string[] {
  const a = client.spec.authorization;
  if (!a) return [];
  if (!hasFeature(info, 'authorization'))
    return [
      `spec.authorization: ${on} runs without the authorization feature; enable it on the IdentityServer (features: authorization) or remove the section`,
    ];
  const problems = authorizationProblems(client);
  const kinds = [
    ['policies', a.policies ?? []],
    ['permissions', a.permissions ?? []],
  ] as const;
  for (const [field, items] of kinds)
    for (const p of items)
      if (!hasProvider(info, 'policy', p.type))
        problems.push(
          `spec.authorization.${field}[${p.name}].type: ${on} has no policy provider "${p.type}" (its policy providers: ${[...(info.providers.get('policy') ?? [])].sort().join(', ') || 'none'})`,
        );
  return problems;
}
