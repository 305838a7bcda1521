// Finds the admin client for an IdentityServer: its Keycloak URL (the in-cluster Service, through the endpoint
// map outside a cluster) and its admin account from <server>-admin-credentials. Clients are kept per server and
// password, so the token cache survives across reconciles and a rotated password gets a new client.
import type { IdentityServer } from '../../../generated/types/crds/identityserver.ts';
import { RealmforgeError } from '../../core/errors.ts';
import { resolveServer, serverEndpoints } from '../compile/resolved-server.ts';
import type { Deps } from '../runtime/deps.ts';
import { decodeCredentials, readSecret } from '../runtime/read-secret.ts';
import type { AdminClient } from './admin-client.ts';

/** Builds an admin client for a base URL and account (createAdminClient with the process's shared deps). */
export type AdminClientFactory = (
  baseUrl: string,
  admin: { username: string; password: string },
) => AdminClient;

/** The admin clients of every server, created on first use. */
export type KeycloakAdmins = { forServer(server: IdentityServer): Promise<AdminClient> };

/** Keeps one admin client per server and password. */
export function keycloakAdmins(deps: Deps, create: AdminClientFactory): KeycloakAdmins {
  const cache = new Map<string, AdminClient>();
  return {
    async forServer(server) {
      const resolved = resolveServer(server);
      const admin = decodeCredentials(await readSecret(deps, resolved.namespace, resolved.adminSecretName));
      if (!admin) {
        throw new RealmforgeError(
          'not_found',
          `Secret ${resolved.namespace}/${resolved.adminSecretName} with the admin account is missing or incomplete`,
        );
      }
      const baseUrl = deps.endpoints.resolve(serverEndpoints(resolved).internal).replace(/\/$/, '');
      const key = `${resolved.namespace}/${resolved.name}|${baseUrl}|${admin.username}|${admin.password}`;
      let client = cache.get(key);
      if (!client) {
        for (const k of cache.keys())
          if (k.startsWith(`${resolved.namespace}/${resolved.name}|`)) cache.delete(k);
        client = create(baseUrl, admin);
        cache.set(key, client);
      }
      return client;
    },
  };
}
