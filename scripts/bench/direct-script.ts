// The direct script the realms, scale and tenants benches compare the operator with: a plain script creating the
// same realms and clients with the minimal admin calls (one POST each, or one realm import carrying its clients),
// 4 at a time as the operator's 4 workers, as master's bootstrap admin (the way teams script Keycloak), on a
// Keycloak of its own that is set up exactly as the operator's (another IdentityServer with the same spec), so
// both start from an empty Keycloak and neither pays for the other's realms.
import { directAdmin } from './direct-admin.ts';
import { log, pool, seconds } from './operator-common.ts';
import { keycloakSections, type productionRealm } from './production-realm.ts';
import type { Workload } from './workload-flags.ts';

export type ScriptRun = { ms: number; calls: number; marks: number[] };

/** The direct script's name of realm `i`. */
export const scriptRealm = (i: number) => `direct-${i}`;

const client = (k: number) => ({
  clientId: `app-${k}`,
  protocol: 'openid-connect',
  publicClient: false,
  redirectUris: ['https://app.example.test/*'],
});

/** Creates `w.realms` realms with `w.clientsPerRealm` clients each on `baseUrl`, timing when each mark is reached.
 * At each size of `w.cpuAt`, once those realms (and, at the full size, every client) exist, the clock stops for
 * `pause(size)`. */
export async function runScript(
  baseUrl: string,
  form: URLSearchParams,
  w: Workload,
  marks: number[],
  pause: (size: number) => Promise<void>,
  example?: ReturnType<typeof productionRealm>,
): Promise<ScriptRun> {
  const direct = await directAdmin(baseUrl, form);
  // Keycloak's own sections, read before the clock starts: a team has its realm export before it imports.
  const own = example ? await keycloakSections(direct.call) : undefined;
  const setUp = direct.calls();
  let paused = 0;
  const started = performance.now();
  const elapsed = () => performance.now() - started - paused;
  const reached: number[] = [];
  let realms = 0;
  const clientList = Array.from({ length: w.clientsPerRealm }, (_, k) => client(k));
  const realm = async (i: number) => {
    const name = scriptRealm(i);
    const body = example?.direct(name, own) ?? { realm: name, enabled: true, displayName: `Direct ${i}` };
    await direct.call('POST', '', w.importClients ? { ...body, clients: clientList } : body);
    if (!marks.includes(++realms)) return;
    reached.push(elapsed());
    log(`direct script: ${realms} realms after ${seconds(elapsed())}`);
  };
  const clients = async (i: number) => {
    if (w.importClients) return;
    for (const c of clientList) await direct.call('POST', `/${scriptRealm(i)}/clients`, c);
  };
  const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);
  const stop = async (size: number) => {
    const at = performance.now();
    await pause(size);
    paused += performance.now() - at;
  };
  let done = 0;
  for (const size of [...w.cpuAt.filter((n) => n < w.realms), w.realms]) {
    const indexes = range(done, size);
    if (w.phased) await pool(indexes, 4, realm);
    else
      await pool(indexes, 4, async (i) => {
        await realm(i);
        await clients(i);
      });
    done = size;
    if (size < w.realms) await stop(size);
  }
  if (w.phased) await pool(range(0, w.realms), 4, clients);
  const ms = elapsed();
  if (w.cpuAt.includes(w.realms)) await stop(w.realms);
  return { ms, calls: direct.calls() - setUp, marks: reached };
}
