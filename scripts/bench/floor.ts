// The floor the realms and scale benches compare the operator with: a plain script creating the same realms and
// clients with the minimal admin calls (one POST each), 4 at a time as the operator's 4 workers, on a Keycloak of
// its own that is set up exactly as the operator's (another IdentityServer with the same spec), so both start
// from an empty Keycloak and neither pays for the other's realms.
import { directAdmin } from './direct-admin.ts';
import { log, pool, seconds } from './operator-common.ts';
import type { productionRealm } from './production-realm.ts';
import type { Workload } from './workload-flags.ts';

export type FloorRun = { ms: number; calls: number; marks: number[] };

/** Creates `w.realms` realms with `w.clientsPerRealm` clients each on `baseUrl`, timing when each mark is reached. */
export async function runFloor(
  baseUrl: string,
  form: URLSearchParams,
  w: Workload,
  marks: number[],
  example?: ReturnType<typeof productionRealm>,
): Promise<FloorRun> {
  const direct = await directAdmin(baseUrl, form);
  const started = performance.now();
  const reached: number[] = [];
  let realms = 0;
  const realm = async (i: number) => {
    await direct.call(
      'POST',
      '',
      example?.direct(`direct-${i}`) ?? { realm: `direct-${i}`, enabled: true, displayName: `Direct ${i}` },
    );
    if (!marks.includes(++realms)) return;
    reached.push(performance.now() - started);
    log(`direct script: ${realms} realms after ${seconds(performance.now() - started)}`);
  };
  const clients = async (i: number) => {
    for (let k = 0; k < w.clientsPerRealm; k++)
      await direct.call('POST', `/direct-${i}/clients`, {
        clientId: `app-${k}`,
        protocol: 'openid-connect',
        publicClient: false,
        redirectUris: ['https://app.example.test/*'],
      });
  };
  const indexes = Array.from({ length: w.realms }, (_, i) => i);
  if (w.phased) {
    await pool(indexes, 4, realm);
    await pool(indexes, 4, clients);
  } else
    await pool(indexes, 4, async (i) => {
      await realm(i);
      await clients(i);
    });
  return { ms: performance.now() - started, calls: direct.calls(), marks: reached };
}
