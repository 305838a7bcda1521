// The realm sync against the real Keycloak of the test environment, with the operator's own admin client and a
// count of the writes that reach Keycloak: shared by the realm e2e suites (realm-sections, realm-roles-groups).
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';
import { type TestEnv, testEnv } from '../../../scripts/testenv/harness.ts';
import { systemClock } from '../../../src/core/clock.ts';
import { syncRealm } from '../../../src/operator/controllers/identity-realm/realm-sync.ts';
import { type AdminClient, createAdminClient } from '../../../src/operator/keycloak/admin-client.ts';
import { createRateLimiter } from '../../../src/operator/keycloak/rate-limits.ts';

/** An IdentityRealm in namespace e2e on server kc. */
export const realmResource = (name: string, spec: Partial<IdentityRealm['spec']>): IdentityRealm => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityRealm',
  metadata: { name, namespace: 'e2e' },
  spec: { serverRef: { name: 'kc' }, ...spec },
});

/** The environment, its Keycloak's admin client and version, the realm sync as the operator runs it for that
 * Keycloak, and `writes` (non-GET calls that reached Keycloak, token requests excluded; reset it freely). */
export async function realmAdmin() {
  const env: TestEnv = await testEnv();
  const kc = env.state.keycloak;
  if (!kc) throw new Error('the environment has no Keycloak');
  const limiter = createRateLimiter(
    { global: { tps: 100, burst: 200 }, namespace: { tps: 100, burst: 200 } },
    { waited: () => {}, queued: () => {} },
  );
  const counter = { writes: 0 };
  const admin: AdminClient = createAdminClient(
    kc.httpUrl,
    { username: kc.adminUsername, password: kc.adminPassword },
    {
      http: (url, init) => fetch(url, init),
      limiter,
      clock: systemClock,
      random: Math.random,
      count: (_ns, method) => {
        if (method !== 'GET') counter.writes++;
      },
      countToken: () => counter.writes--,
      canWrite: () => true,
      // A slow machine: long answers are waited for, and a retry's wait keeps the process alive (the system
      // clock's timers do not).
      timeoutMs: 60_000,
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    },
  );
  return {
    env,
    admin,
    version: kc.version,
    counter,
    sync: (realm: IdentityRealm) => syncRealm(admin, realm, { keycloakVersion: kc.version }),
    get: async (path: string) => (await admin.call<Record<string, any>>('e2e', 'GET', path)).body,
    /** Deletes the realms named, stops the limiter and cleans the environment up. */
    async close(realms: string[]) {
      for (const realm of realms) await admin.call('e2e', 'DELETE', `/${realm}`).catch(() => {});
      await limiter.stop();
      await env.cleanup();
    },
  };
}
