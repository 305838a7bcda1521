// The world of the federation controller tests: a realm with an OIDC identity provider and an LDAP provider whose
// Secrets exist, a directory and a discovery URL the fake Keycloak can reach.
import type { KubeObject } from '../../../../src/operator/compile/kube-object.ts';
import { identityRealmController } from '../../../../src/operator/controllers/identity-realm/identity-realm.ts';
import { keycloakWorld, realmResource, type World } from '../keycloak-world.ts';

export const reconcile = (world: World) => identityRealmController(world.deps)('identity/corp');
export const secret = (name: string, value: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: 'identity' },
  data: { value: Buffer.from(value).toString('base64') },
});
export const directory = {
  url: 'ldap://ldap:389',
  bindDn: 'cn=admin,dc=corp',
  password: 'bind-pw',
  users: ['ann', 'bob'],
};
export const ldap = {
  name: 'corp-ldap',
  connectionUrl: 'ldap://ldap:389',
  bindDn: 'cn=admin,dc=corp',
  bindCredentialRef: { name: 'ldap', key: 'value' },
  usersDn: 'ou=people,dc=corp',
  mappers: [
    { name: 'groups', type: 'group-ldap-mapper' as const, config: { 'groups.dn': 'ou=groups,dc=corp' } },
  ],
};
export const idp = {
  alias: 'upstream',
  providerId: 'oidc' as const,
  config: { issuer: 'http://up/realms/up', clientId: 'broker', authorizationUrl: 'http://up/auth' },
  clientSecretRef: { name: 'idp', key: 'value' },
  mappers: [
    {
      name: 'dept',
      type: 'oidc-user-attribute-idp-mapper',
      config: { claim: 'dept', 'user.attribute': 'department' },
    },
  ],
};
export const corp = (spec: Record<string, unknown>, annotations?: Record<string, string>) => {
  const r = realmResource('corp', 'identity', spec);
  return annotations ? { ...r, metadata: { ...r.metadata, annotations } } : r;
};

export function federatedWorld(
  spec: Record<string, unknown> = { identityProviders: [idp], userFederation: { ldap: [ldap] } },
) {
  const world = keycloakWorld([corp(spec), secret('ldap', 'bind-pw'), secret('idp', 'idp-secret')]);
  world.keycloak.world.directories.push({ ...directory });
  world.keycloak.world.fetchable.add('http://up/realms/up/.well-known/openid-configuration');
  return world;
}
export const state = (world: World) => world.keycloak.federationOf('corp');
export const provider = (world: World) => state(world).components.find((c) => c.name === 'corp-ldap');
