// Finds the admin client for an IdentityServer: its Keycloak URL (a deployed server's in-cluster Service, through
// the endpoint map outside a cluster; an existing one's spec.external.url) and the operator's own identity
// (operator-client.ts, external-identity.ts). When <server>-operator-client is missing, the bootstrap admin from
// <server>-admin-credentials creates the operator's client once (event OperatorClientCreated); when Keycloak refuses
// that client's credentials, it is re-keyed the same way (OperatorClientRotated). Without the bootstrap admin either
// is impossible: OperatorIdentityLost, with the fix. On Keycloak 25 the operator's identity is an account instead of
// a client (operator-account.ts: 25 refuses a lightweight service-account token on the admin API).
// Clients are kept per server, credentials and CA, so the token cache survives across reconciles; each is handed
// out as one stable object, so what is cached per client (the server info) is found again. What forServer hands
// out sends each call about a realm with that realm's identity (realm-routing.ts, realm-identity.ts), whose secret
// is derived from the key `realm-key` kept in the same Secret <server>-operator-client (made once, at random).
import type { IdentityServer } from '../../../generated/types/crds/identityserver.ts';
import type { KubeObject } from '../compile/kube-object.ts';
import { resolveServer, serverUrls } from '../compile/resolved-server.ts';
import type { Deps } from '../runtime/deps.ts';
import { decodeCredentials, readSecret } from '../runtime/read-secret.ts';
import type { AdminClient } from './admin-client.ts';
import {
  type AdminIdentity,
  identityKey,
  identityName,
  isOperatorClient,
  masterUserName,
  TokenRefusedError,
} from './admin-identity.ts';
import {
  decodeIdentity,
  ExternalSettingsError,
  externalClientId,
  externalIdentity,
  readExternalCa,
  readExternalCredentials,
  storedIdentitySecret,
} from './external-identity.ts';
import { holdAdminForAdoption } from './master-reduction.ts';
import { provisionOperatorAccount } from './operator-account.ts';
import {
  OperatorIdentityLostError,
  operatorClientId,
  operatorSecretName,
  provisionOperatorClient,
} from './operator-client.ts';
import { operatorSecrets } from './operator-secret.ts';
import { realmIdentity } from './realm-identity.ts';
import { lru, realmClientBound, routedAdmin } from './realm-routing.ts';
import { KeycloakReasonError } from './reason-error.ts';

/** Builds an admin client for a base URL, identity and optional PEM CA (createAdminClient with shared deps). */
export type AdminClientFactory = (baseUrl: string, identity: AdminIdentity, ca?: string) => AdminClient;

/** A server's admin client (calls routed by realm) with its master identity beside it. */
export type ServerAdmin = AdminClient & {
  /** The master identity's client: realm creation and deletion, and restoring a realm identity. */
  readonly master: AdminClient;
  /** The username of the master identity's user in master (a client's service-account user, or an account). */
  readonly masterUser?: string;
  /** The secret of the operator's client inside `realm`. */
  realmSecret(realm: string): string;
  /** The Keycloak version read when the master identity was made (Keycloak hides it from create-realm alone). */
  statedVersion(): string | undefined;
};

/** The admin clients of every server, created on first use; `reload` re-reads an existing Keycloak's settings
 * (its credentials Secret and CA: the server reconcile does, once per drift interval). */
export type KeycloakAdmins = {
  forServer(server: IdentityServer, options?: { reload?: boolean }): Promise<ServerAdmin>;
};

const idOf = (server: IdentityServer) => `${server.metadata.namespace ?? 'default'}/${server.metadata.name}`;

/** Keeps one admin client per server and identity; provisions the operator's client when needed. */
export function keycloakAdmins(deps: Deps, create: AdminClientFactory): KeycloakAdmins {
  const cache = new Map<string, AdminClient>();
  const handed = new WeakMap<AdminClient, AdminClient>();
  const provisioning = new Map<string, Promise<AdminIdentity>>();
  // Credentials just provisioned, until the Secret read (from the watch cache) shows them too.
  const fresh = new Map<string, AdminIdentity>();
  const cas = new Map<string, string | undefined>();
  const secrets = operatorSecrets(deps);
  const versions = new Map<string, string>();
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
          `${operatorClientId} in master (the operator keeps no copy of the bootstrap admin once its client ` +
          `exists): create ${r.adminSecretName} with keys username and password of a master admin (kubectl ` +
          `create secret generic ${r.adminSecretName} -n ${r.namespace} --from-literal=username=<user> ` +
          "--from-literal=password=<password>); if nobody knows one, make a temporary admin with Keycloak's " +
          `recovery command (kubectl exec -it -n ${r.namespace} deploy/${r.name} -- /opt/keycloak/bin/kc.sh ` +
          'bootstrap-admin user --username temp-admin) and put it there; the operator then re-keys its client',
      );
    }
    const privileged = create(baseUrl, bootstrap);
    const identity =
      r.majorVersion < 26
        ? await provisionOperatorAccount(privileged, r.namespace, deps.newPassword())
        : await provisionOperatorClient(privileged, r.namespace);
    return { identity, created: true, privileged };
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
    const privileged = create(baseUrl, given, ca);
    return { ...(await externalIdentity(given, privileged, server, deps.newPassword)), privileged };
  }

  /** Stores the identity to use (a provisioned client, or the user's credentials of an existing Keycloak). */
  async function provision(
    server: IdentityServer,
    baseUrl: string,
    ca: string | undefined,
    rotated: boolean,
  ) {
    const ns = server.metadata.namespace ?? 'default';
    const made: { identity: AdminIdentity; created: boolean; version?: string; privileged: AdminClient } =
      server.spec.external
        ? await provisionExternal(server, baseUrl, ca, rotated)
        : await provisionDeployed(server, baseUrl, rotated);
    const { identity, created } = made;
    if (made.version) versions.set(idOf(server), made.version);
    // Realms an operator made before this identity existed are adopted by the server's next pass; until then the
    // identity holds admin (granted before it is stored, so a crash here repeats it).
    const held = created && (await holdAdminForAdoption(made.privileged, ns, masterUserName(identity)));
    await deps.kube.apply(storedIdentitySecret(server, identity, await secrets.realmKey(server, false)));
    secrets.keyWritten(server);
    const where = `Secret ${ns}/${operatorSecretName(server.metadata.name)}`;
    await deps.kube.event(server as unknown as KubeObject, {
      type: 'Normal',
      reason: created
        ? rotated
          ? 'OperatorClientRotated'
          : 'OperatorClientCreated'
        : 'OperatorCredentialsStored',
      message: created
        ? `${identityName(identity)} in master ${rotated ? `has a new ${isOperatorClient(identity) ? 'secret' : 'password'}` : 'was created'}; its credentials are in ${where}`
        : `the credentials of spec.external.credentialsSecret are kept in ${where} for the operator's calls`,
    });
    if (held)
      await deps.kube.event(server as unknown as KubeObject, {
        type: 'Normal',
        reason: 'OperatorRealmsFound',
        message: `Keycloak has realms an operator made before ${identityName(identity)} existed: it holds master's admin until it has given them their identity (event OperatorIdentityReduced)`,
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

  /** The identity kept in <server>-operator-client (or just provisioned, or restored from beside the database). */
  async function stored(server: IdentityServer): Promise<AdminIdentity | undefined> {
    const id = idOf(server);
    const secret = await secrets.own(server);
    const restored = decodeIdentity(secret) || fresh.has(id) ? undefined : await secrets.restoreKept(server);
    if (restored) fresh.set(id, restored);
    const kept = decodeIdentity(secret) ?? restored;
    const recent = fresh.get(id);
    if (recent && kept && identityKey(recent) === identityKey(kept)) fresh.delete(id);
    return recent ?? kept;
  }

  async function current(server: IdentityServer, baseUrl: string, ca?: string): Promise<AdminClient> {
    const id = idOf(server);
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
    // An account given, the operator's own identity made from it kept: the account has done its work.
    const own = isOperatorClient(kept) ? kept.clientId : kept.username;
    const ours = !isOperatorClient(given) && own === externalClientId(server);
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
      const key = await secrets.realmKey(server);
      const id = idOf(server);
      const known = routed.get(id);
      if (known && known.key === key && known.master === master) return known.admin;
      const base = master.baseUrl;
      const ca = server.spec.external ? await caOf(server, false) : undefined;
      const clients = lru<AdminClient>(realmClientBound);
      const identity = await stored(server);
      const admin: ServerAdmin = Object.assign(
        routedAdmin(
          master,
          (realm) => clients.get(realm, () => create(base, realmIdentity(key, realm), ca)),
          deps.clock,
        ),
        {
          master,
          masterUser: identity && masterUserName(identity),
          realmSecret: (realm: string) => realmIdentity(key, realm).clientSecret,
          statedVersion: () => versions.get(id),
        },
      );
      routed.set(id, { key, master, admin });
      return admin;
    },
  };
}
