// The test environment's own Keycloak as a suite's IdentityServer (spec.external): for suites whose subject is
// realms and clients, not the server, it saves deploying and bootstrapping a Keycloak of their own (23-70 s of
// set-up each). That Keycloak outlives the suite and the next suite of the environment uses it too, so `forget`
// deletes the realms the suite made there and the operator's own client in master (the suite's resources go with
// its namespaces: env.cleanup deletes them).
import type { IdentityServer } from '../../../generated/types/crds/identityserver.ts';
import type { TestEnv } from '../../../scripts/testenv/harness.ts';
import { type KeycloakAdmin, keycloakAdminApi } from './keycloak-admin.ts';

export type HarnessServer = {
  /** The harness Keycloak's admin API, as its bootstrap admin. */
  admin: KeycloakAdmin;
  /** The harness Keycloak's URL. */
  url: string;
  /** Applies the IdentityServer `name` in `ns` on the harness Keycloak, or on `url` (a fault proxy before it). */
  apply(ns: string, name: string, url?: string): Promise<void>;
  /** Deletes the realms made since `harnessServer` was called and in master the operator's clients for the servers
   * of `ns` (the operators stopped). */
  forget(ns: string): Promise<void>;
};

/** The harness Keycloak, with the realms it holds now remembered (they are not the suite's). */
export async function harnessServer(env: TestEnv): Promise<HarnessServer> {
  const kc = env.state.keycloak;
  if (!kc) throw new Error('the test environment has no harness Keycloak');
  const admin = keycloakAdminApi(
    () => kc.httpUrl,
    async () => ({ username: kc.adminUsername, password: kc.adminPassword }),
  );
  const realmNames = async () => ((await admin('GET', '')) as { realm: string }[]).map((r) => r.realm);
  const before = new Set(await realmNames());
  return {
    admin,
    url: kc.httpUrl,
    async apply(ns, name, url = kc.httpUrl) {
      const secret = `${name}-harness-admin`;
      await env.apply({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: secret, namespace: ns },
        stringData: { username: kc.adminUsername, password: kc.adminPassword },
      } as never);
      const server: IdentityServer = {
        apiVersion: 'realmforge.dev/v1',
        kind: 'IdentityServer',
        metadata: { name, namespace: ns },
        spec: { external: { url, credentialsSecret: secret } },
      };
      await env.apply(server as never);
    },
    async forget(ns) {
      for (const realm of await realmNames())
        if (!before.has(realm)) await admin('DELETE', `/${encodeURIComponent(realm)}`);
      const clients = (await admin('GET', '/master/clients')) as { id: string; clientId: string }[];
      for (const c of clients)
        if (c.clientId.startsWith(`realmforge-operator-${ns}-`))
          await admin('DELETE', `/master/clients/${c.id}`);
    },
  };
}
