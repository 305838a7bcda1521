// Finds the admin client for an IdentityServer: its Keycloak URL (a deployed server's in-cluster Service, through
// the endpoint map outside a cluster; an existing one's spec.external.url) and the operator's own identity
// (operator-client.ts, external-identity.ts). When <server>-operator-client is missing, the bootstrap admin from
// <server>-admin-credentials creates the operator's client once (event OperatorClientCreated); when Keycloak refuses
// that client's credentials, it is re-keyed the same way (OperatorClientRotated). Without the bootstrap admin either
// is impossible: OperatorIdentityLost, with the fix. Keycloak 25 keeps using the bootstrap admin (see current()).
// Clients are kept per server, credentials and CA, so the token cache survives across reconciles; each is handed
// out as one stable object, so what is cached per client (the server info) is found again. What forServer hands
// out sends each call about a realm with that realm's identity (realm-routing.ts, realm-identity.ts), whose secret
// is derived from the key `realm-key` kept in the same Secret <server>-operator-client (made once, at random).
import type { IdentityServer } from '../../../generated/types/crds/identityserver.ts';
import type { KubeObject } from '../compile/kube-object.ts';
import { resolveServer, serverUrls } from '../compile/resolved-server.ts';
import type { Deps } from '../runtime/deps.ts';
import { decodeCredentials, readSecret, secretValue } from '../runtime/read-secret.ts';
import type { AdminClient } from './admin-client.ts';
import {
  type AdminIdentity,
  identityKey,
  identityName,
  isOperatorClient,
  TokenRefusedError,
} from './admin-identity.ts';
import {
  decodeIdentity,
  ExternalSettingsError,
  externalIdentity,
  readExternalCa,
  readExternalCredentials,
  storedIdentitySecret,
} from './external-identity.ts';
import {
  OperatorIdentityLostError,
  operatorClientId,
  operatorSecretName,
  provisionOperatorClient,
} from './operator-client.ts';
import { realmIdentity } from './realm-identity.ts';
import { lru, realmClientBound, routedAdmin } from './realm-routing.ts';
import { KeycloakReasonError } from './reason-error.ts';

/** Builds an admin client for a base URL, identity and optional PEM CA (createAdminClient with shared deps). */
export type AdminClientFactory = (baseUrl: string, identity: AdminIdentity, ca?: string) => AdminClient;

/** A server's admin client (calls routed by realm) with its master identity beside it. */
export type ServerAdmin = AdminClient & {
  /** The master identity's client: realm creation and deletion, and restoring a realm identity. */
  readonly master: AdminClient;
  /** The master identity's clientId when it is a client (undefined: an admin account). */
  readonly masterClientId?: string;
  /** The secret of the operator's client inside `realm`. */
  realmSecret(realm: string): string;
};

/** The admin clients of every server, created on first use; `reload` re-reads an existing Keycloak's settings
 * (its credentials Secret and CA: the server reconcile does, once per drift interval). */
export type KeycloakAdmins = {
  forServer(server: IdentityServer, options?: { reload?: boolean }): Promise<ServerAdmin>;
};

/** The key in <server>-operator-client from which each realm identity's secret is derived. */
export const realmKeyField = 'realm-key';

const idOf = (server: IdentityServer) => `${server.metadata.namespace ?? 'default'}/${server.metadata.name}`;

/** Keeps one admin client per server and identity; provisions the operator's client when needed. */
export function keycloakAdmins(deps: Deps, create: AdminClientFactory): KeycloakAdmins {
  const cache = new Map<string, AdminClient>();
  const handed = new WeakMap<AdminClient, AdminClient>();
  const provisioning = new Map<string, Promise<AdminIdentity>>();
  // Credentials just provisioned, until the Secret read (from the watch cache) shows them too.
  const fresh = new Map<string, AdminIdentity>();
  const cas = new Map<string, string | undefined>();
  const keys = new Map<string, string>();
  const keying = new Map<string, Promise<string>>();
  const routed = new Map<string, { key: string; master: AdminClient; admin: ServerAdmin }>();

  const clientFor = (server: string, baseUrl: string, identity: AdminIdentity, ca?: string) => {
    const key = `${server}|${baseUrl}|${identityKey(identity)}|${ca ?? ''}`;
    let client = cache.get(key);
    if (!client) {
      for (const k of cache.keys()) if (k.startsWith(`${server}|`)) cache.delete(k);
      client = create(baseUrl, identity, ca);
      cache.set(key, client);
    }
    return client;
  };

  /** Creates or re-keys the operator's client with the bootstrap admin of a deployed server. */
  async function provisionDeployed(server: IdentityServer, baseUrl: string, rotated: boolean) {
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
    return {
      identity: await provisionOperatorClient(create(baseUrl, bootstrap), r.namespace),
      created: true,
    };
  }

  /** The identity for an existing Keycloak from the user's Secret; refused credentials used as given are named. */
  async function provisionExternal(
    server: IdentityServer,
    baseUrl: string,
    ca: string | undefined,
    rotated: boolean,
  ) {
    const given = await readExternalCredentials(deps, server);
    const kept = rotated ? await stored(server) : undefined;
    if (kept && identityKey(kept) === identityKey(given)) {
      const ns = server.metadata.namespace ?? 'default';
      throw new KeycloakReasonError(
        'auth',
        'ExternalCredentialsRefused',
        `Keycloak at ${baseUrl} refuses ${identityName(given)} from Secret ${ns}/${server.spec.external?.credentialsSecret} (spec.external.credentialsSecret): put valid credentials there (a client of master with a service account holding the master role admin, or a master admin); the operator reads them again at once`,
      );
    }
    return externalIdentity(given, create(baseUrl, given, ca), server);
  }

  /** Stores the identity to use (a provisioned client, or the user's credentials of an existing Keycloak). */
  async function provision(
    server: IdentityServer,
    baseUrl: string,
    ca: string | undefined,
    rotated: boolean,
  ) {
    const ns = server.metadata.namespace ?? 'default';
    const { identity, created } = server.spec.external
      ? await provisionExternal(server, baseUrl, ca, rotated)
      : await provisionDeployed(server, baseUrl, rotated);
    await deps.kube.apply(storedIdentitySecret(server, identity, await realmKey(server)));
    const where = `Secret ${ns}/${operatorSecretName(server.metadata.name)}`;
    await deps.kube.event(server as unknown as KubeObject, {
      type: 'Normal',
      reason: created
        ? rotated
          ? 'OperatorClientRotated'
          : 'OperatorClientCreated'
        : 'OperatorCredentialsStored',
      message: created
        ? `the operator's client ${isOperatorClient(identity) ? identity.clientId : operatorClientId} in master ${rotated ? 'has a new secret' : 'was created'}; its credentials are in ${where}`
        : `the credentials of spec.external.credentialsSecret are kept in ${where} for the operator's calls`,
    });
    fresh.set(idOf(server), identity);
    return identity;
  }

  /** One provisioning per server at a time; concurrent reconciles wait for it. */
  const provisionOnce = (
    server: IdentityServer,
    baseUrl: string,
    ca: string | undefined,
    rotated: boolean,
  ) => {
    const key = idOf(server);
    let running = provisioning.get(key);
    if (!running) {
      running = provision(server, baseUrl, ca, rotated).finally(() => provisioning.delete(key));
      provisioning.set(key, running);
    }
    return running;
  };

  /** <server>-operator-client as stored (undefined: absent); a Secret of that name not the server's is a conflict. */
  async function ownSecret(server: IdentityServer) {
    const id = idOf(server);
    const ns = server.metadata.namespace ?? 'default';
    const secret = await readSecret(deps, ns, operatorSecretName(server.metadata.name));
    // A Secret of that name the server does not control is someone else's: never read as ours, never rewritten.
    const uid = server.metadata.uid;
    if (secret && uid && !secret.metadata.ownerReferences?.some((r) => r.controller && r.uid === uid)) {
      throw new KeycloakReasonError(
        'conflict',
        'ChildNameConflict',
        `Secret ${ns}/${secret.metadata.name} already exists and is not IdentityServer ${id}'s; the operator leaves it untouched and keeps its own client's credentials nowhere else: delete it or give the IdentityServer another name`,
      );
    }
    return secret;
  }

  /** The key of the realm identities' secrets, made once (kept with the master identity's credentials). */
  async function realmKey(server: IdentityServer): Promise<string> {
    const id = idOf(server);
    const secret = await ownSecret(server);
    const value = secretValue(secret, realmKeyField) ?? keys.get(id);
    if (value) {
      keys.set(id, value);
      return value;
    }
    let running = keying.get(id);
    if (!running) {
      const made = deps.newPassword();
      const data = { ...(secret?.data as Record<string, string> | undefined) };
      data[realmKeyField] = Buffer.from(made).toString('base64');
      const base = storedIdentitySecret(server, decodeIdentity(secret));
      running = deps.kube
        .apply({ ...base, data })
        .then(() => {
          keys.set(id, made);
          return made;
        })
        .finally(() => keying.delete(id));
      keying.set(id, running);
    }
    return running;
  }

  /** The identity kept in <server>-operator-client (or just provisioned). */
  async function stored(server: IdentityServer): Promise<AdminIdentity | undefined> {
    const id = idOf(server);
    const secret = await ownSecret(server);
    const kept = decodeIdentity(secret);
    const recent = fresh.get(id);
    if (recent && kept && identityKey(recent) === identityKey(kept)) fresh.delete(id);
    return recent ?? kept;
  }

  async function current(server: IdentityServer, baseUrl: string, ca?: string): Promise<AdminClient> {
    const id = idOf(server);
    if (!server.spec.external && resolveServer(server).majorVersion < 26) {
      // Keycloak 25 refuses a lightweight service-account token on the admin API (403, measured on 25.0.6) and its
      // full token grows with every realm, while its admin-cli token stays flat: 25 keeps the bootstrap admin.
      const r = resolveServer(server);
      const bootstrap = decodeCredentials(await readSecret(deps, r.namespace, r.adminSecretName));
      if (!bootstrap) {
        throw new OperatorIdentityLostError(
          `Secret ${r.namespace}/${r.adminSecretName} with the admin account is missing or incomplete (Keycloak 25 ` +
            'is managed with its bootstrap admin): recreate it with keys username and password of a master admin',
        );
      }
      return clientFor(id, baseUrl, bootstrap);
    }
    const identity = (await stored(server)) ?? (await provisionOnce(server, baseUrl, ca, false));
    return clientFor(id, baseUrl, identity, ca);
  }

  /** An existing Keycloak's CA, read on first use and on reload. */
  async function caOf(server: IdentityServer, reload: boolean): Promise<string | undefined> {
    const key = `${idOf(server)}|${JSON.stringify(server.spec.external)}`;
    if (!reload && cas.has(key)) return cas.get(key);
    const ca = await readExternalCa(deps, server);
    cas.set(key, ca);
    return ca;
  }

  /** On reload: the user changed the credentials the operator uses as given (a client, or an account on 25). */
  async function outdated(server: IdentityServer): Promise<boolean> {
    const kept = await stored(server);
    if (!kept) return false;
    // Once the operator keeps an identity, the user's Secret may go (an admin account is needed only once).
    const given = await readExternalCredentials(deps, server).catch((error: unknown) => {
      if (error instanceof ExternalSettingsError) return undefined;
      throw error;
    });
    if (!given) return false;
    const ours = !isOperatorClient(given) && isOperatorClient(kept);
    return !ours && identityKey(given) !== identityKey(kept);
  }

  /** The master identity's client (re-keyed once when Keycloak refuses it). */
  async function masterClient(server: IdentityServer, options: { reload?: boolean }) {
    const external = server.spec.external !== undefined;
    const baseUrl = deps.endpoints.resolve(serverUrls(server).internal).replace(/\/$/, '');
    const ca = external ? await caOf(server, options.reload === true) : undefined;
    if (external && options.reload && (await outdated(server)))
      await provisionOnce(server, baseUrl, ca, false);
    const client = await current(server, baseUrl, ca);
    let wrapper = handed.get(client);
    if (!wrapper) {
      // A refused client (deleted or re-keyed in Keycloak) is re-keyed once with the bootstrap admin.
      wrapper = {
        baseUrl: client.baseUrl,
        async call(namespace, method, path, body, options) {
          try {
            return await client.call(namespace, method, path, body, options);
          } catch (error) {
            if (!(error instanceof TokenRefusedError)) throw error;
            await provisionOnce(server, baseUrl, ca, true);
            return (await current(server, baseUrl, ca)).call(namespace, method, path, body, options);
          }
        },
      } as AdminClient;
      handed.set(client, wrapper);
    }
    return wrapper;
  }

  return {
    async forServer(server, options = {}) {
      const master = await masterClient(server, options);
      const key = await realmKey(server);
      const id = idOf(server);
      const known = routed.get(id);
      if (known && known.key === key && known.master === master) return known.admin;
      const base = master.baseUrl;
      const ca = server.spec.external ? await caOf(server, false) : undefined;
      const clients = lru<AdminClient>(realmClientBound);
      const identity = await stored(server);
      const admin: ServerAdmin = Object.assign(
        routedAdmin(master, (realm) => clients.get(realm, () => create(base, realmIdentity(key, realm), ca))),
        {
          master,
          masterClientId: identity && isOperatorClient(identity) ? identity.clientId : undefined,
          realmSecret: (realm: string) => realmIdentity(key, realm).clientSecret,
        },
      );
      routed.set(id, { key, master, admin });
      return admin;
    },
  };
}
