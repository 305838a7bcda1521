// The upstream realm of the federation e2e: a second realm on the same Keycloak that stands in for the corporate
// OpenID Connect provider. Its client for the broker (an IdentityClient, whose credentials Secret the broker's
// clientSecretRef names) adds a department claim to every token; a person, carol, signs in there.
import type { TestEnv } from '../../../scripts/testenv/harness.ts';
import { waitStatus } from '../../../scripts/testenv/identity-fixtures.ts';
import type { KeycloakAdmin } from './keycloak-admin.ts';

/** The upstream realm (the corporate IdP stand-in): its client for the broker with a claim, a person, and its
 * public key in the Secret upstream-signing (key public-key). Answers the key's id. */
export async function upstreamRealm(
  env: TestEnv,
  ns: string,
  keycloakUrl: string,
  admin: KeycloakAdmin,
): Promise<string> {
  const ready = (plural: string, name: string, ms: number) =>
    waitStatus(env, plural, ns, name, ms, (s) => s.phase === 'Ready', 'to be Ready');
  await env.apply({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityRealm',
    metadata: { name: 'upstream', namespace: ns },
    spec: { serverRef: { name: 'idp' }, clientAuthorizationGrants: [ns] },
  } as never);
  await ready('identityrealms', 'upstream', 120_000);
  await env.apply(
    // Not 'broker': every Keycloak realm has a built-in client of that name.
    {
      apiVersion: 'realmforge.dev/v1',
      kind: 'IdentityClient',
      metadata: { name: 'corp-sso', namespace: ns },
      spec: {
        realmRef: { name: 'upstream' },
        redirectUris: [`${keycloakUrl}/realms/corp/broker/upstream/endpoint`],
        protocolMappers: [
          {
            name: 'department',
            protocolMapper: 'oidc-hardcoded-claim-mapper',
            config: {
              'claim.name': 'department',
              'claim.value': 'research',
              'jsonType.label': 'String',
              'id.token.claim': 'true',
              'access.token.claim': 'true',
              'userinfo.token.claim': 'true',
            },
          },
        ],
      },
    } as never,
  );
  await admin('POST', '/upstream/users', {
    username: 'carol',
    email: 'carol@upstream.test',
    firstName: 'Carol',
    lastName: 'Upstream',
    enabled: true,
    emailVerified: true,
    credentials: [{ type: 'password', value: 'carol-pw', temporary: false }],
  });
  const info = (await (await fetch(`${keycloakUrl}/realms/upstream`)).json()) as { public_key: string };
  const certs = (await (
    await fetch(`${keycloakUrl}/realms/upstream/protocol/openid-connect/certs`)
  ).json()) as {
    keys: { kid: string; alg: string; use: string }[];
  };
  await env.apply({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'upstream-signing', namespace: ns },
    stringData: { 'public-key': info.public_key },
  } as never);
  await ready('identityclients', 'corp-sso', 120_000);
  return certs.keys.find((k) => k.alg === 'RS256' && k.use === 'sig')?.kid ?? '';
}
