// Finds the admin client for an IdentityServer: its Keycloak URL (the in-cluster Service, through the endpoint
// map outside a cluster) and the operator's own identity (operator-client.ts). When <server>-operator-client is
// missing, the bootstrap admin from <server>-admin-credentials creates the operator's client once (event
// OperatorClientCreated); when Keycloak refuses that client's credentials, it is re-keyed the same way
// (OperatorClientRotated). Without the bootstrap admin either is impossible: OperatorIdentityLost, with the fix.
// Keycloak 25 keeps using the bootstrap admin (see current()).
// Clients are kept per server and credentials, and handed out as the same object each time, so the token cache
// and the server info survive across reconciles.
import type { IdentityServer } from '../../../generated/types/crds/identityserver.ts';
import type { KubeObject } from '../compile/kube-object.ts';
import { resolveServer, serverEndpoints } from '../compile/resolved-server.ts';
import type { Deps } from '../runtime/deps.ts';
import { decodeCredentials, readSecret } from '../runtime/read-secret.ts';
import type { AdminClient } from './admin-client.ts';
import { type AdminIdentity, identityKey, type OperatorClient, TokenRefusedError } from './admin-identity.ts';
import {
  decodeOperatorClient,
  OperatorIdentityLostError,
  operatorClientId,
  operatorSecret,
  operatorSecretName,
  provisionOperatorClient,
} from './operator-client.ts';

/** Builds an admin client for a base URL and identity (createAdminClient with the process's shared deps). */
export type AdminClientFactory = (baseUrl: string, identity: AdminIdentity) => AdminClient;

/** The admin clients of every server, created on first use. */
export type KeycloakAdmins = { forServer(server: IdentityServer): Promise<AdminClient> };

/** Keeps one admin client per server and identity; provisions the operator's client when needed. */
export function keycloakAdmins(deps: Deps, create: AdminClientFactory): KeycloakAdmins {
  const cache = new Map<string, AdminClient>();
  const provisioning = new Map<string, Promise<OperatorClient>>();
  // Credentials just provisioned, until the Secret read (from the watch cache) shows them too.
  const fresh = new Map<string, OperatorClient>();

  const clientFor = (server: string, baseUrl: string, identity: AdminIdentity) => {
    const key = `${server}|${baseUrl}|${identityKey(identity)}`;
    let client = cache.get(key);
    if (!client) {
      for (const k of cache.keys()) if (k.startsWith(`${server}|`)) cache.delete(k);
      client = create(baseUrl, identity);
      cache.set(key, client);
    }
    return client;
  };

  /** Creates or re-keys the operator's client with the bootstrap admin and stores its Secret. */
  async function provision(
    server: IdentityServer,
    baseUrl: string,
    rotated: boolean,
  ): Promise<OperatorClient> {
    const r = resolveServer(server);
    const bootstrap = decodeCredentials(await readSecret(deps, r.namespace, r.adminSecretName));
    const stored = `Secret ${r.namespace}/${operatorSecretName(r.name)}`;
    if (!bootstrap) {
      throw new OperatorIdentityLostError(
        `${rotated ? `Keycloak refuses the credentials in ${stored}` : `${stored} is missing`} and Secret ` +
          `${r.namespace}/${r.adminSecretName} holds no admin account to restore the operator's client ` +
          `${operatorClientId} in master: create ${r.adminSecretName} with keys username and password of a ` +
          'master admin (kubectl create secret generic ...); the operator then re-keys its client',
      );
    }
    const created = await provisionOperatorClient(create(baseUrl, bootstrap), r.namespace);
    await deps.kube.apply(operatorSecret(server, created));
    await deps.kube.event(server as unknown as KubeObject, {
      type: 'Normal',
      reason: rotated ? 'OperatorClientRotated' : 'OperatorClientCreated',
      message: `the operator's client ${operatorClientId} in master ${rotated ? 'has a new secret' : 'was created'}; its credentials are in ${stored}`,
    });
    fresh.set(`${r.namespace}/${r.name}`, created);
    return created;
  }

  /** One provisioning per server at a time; concurrent reconciles wait for it. */
  const provisionOnce = (server: IdentityServer, baseUrl: string, rotated: boolean) => {
    const key = `${server.metadata.namespace}/${server.metadata.name}`;
    let running = provisioning.get(key);
    if (!running) {
      running = provision(server, baseUrl, rotated).finally(() => provisioning.delete(key));
      provisioning.set(key, running);
    }
    return running;
  };

  async function current(server: IdentityServer, baseUrl: string): Promise<AdminClient> {
    const r = resolveServer(server);
    const id = `${r.namespace}/${r.name}`;
    // Keycloak 25 refuses a lightweight service-account token on the admin API (403, measured on 25.0.6) and its
    // full token grows with every realm, while its admin-cli token stays flat: 25 keeps the bootstrap admin.
    if (r.majorVersion < 26) {
      const bootstrap = decodeCredentials(await readSecret(deps, r.namespace, r.adminSecretName));
      if (!bootstrap) {
        throw new OperatorIdentityLostError(
          `Secret ${r.namespace}/${r.adminSecretName} with the admin account is missing or incomplete (Keycloak 25 ` +
            'is managed with its bootstrap admin): recreate it with keys username and password of a master admin',
        );
      }
      return clientFor(id, baseUrl, bootstrap);
    }
    const stored = decodeOperatorClient(await readSecret(deps, r.namespace, operatorSecretName(r.name)));
    const recent = fresh.get(id);
    if (recent && stored && identityKey(recent) === identityKey(stored)) fresh.delete(id);
    const identity = (recent ?? stored) || (await provisionOnce(server, baseUrl, false));
    return clientFor(id, baseUrl, identity);
  }

  // One wrapper per client, so that what is kept per admin client (the server info, server-info.ts) is kept across
  // reconciles; it re-keys with the server as last seen.
  const wrappers = new WeakMap<
    AdminClient,
    { wrapper: AdminClient; server: IdentityServer; baseUrl: string }
  >();
  const wrapped = (client: AdminClient, server: IdentityServer, baseUrl: string): AdminClient => {
    const known = wrappers.get(client);
    if (known) {
      known.server = server;
      return known.wrapper;
    }
    const entry = { server, baseUrl, wrapper: client };
    // A refused client (deleted or re-keyed in Keycloak) is re-keyed once with the bootstrap admin.
    entry.wrapper = {
      baseUrl: client.baseUrl,
      async call(namespace, method, path, body) {
        try {
          return await client.call(namespace, method, path, body);
        } catch (error) {
          if (!(error instanceof TokenRefusedError)) throw error;
          await provisionOnce(entry.server, entry.baseUrl, true);
          return (await current(entry.server, entry.baseUrl)).call(namespace, method, path, body);
        }
      },
    } as AdminClient;
    wrappers.set(client, entry);
    return entry.wrapper;
  };

  return {
    async forServer(server) {
      const baseUrl = deps.endpoints
        .resolve(serverEndpoints(resolveServer(server)).internal)
        .replace(/\/$/, '');
      return wrapped(await current(server, baseUrl), server, baseUrl);
    },
  };
}
