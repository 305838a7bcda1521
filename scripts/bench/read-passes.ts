// Keycloak's CPU per steady-state pass: what reading realms costs Keycloak for three readers at one realm count,
// so that the operator's cost stands beside a script's. The script's identity is master's bootstrap admin (its
// `admin` role is a composite of every realm's management roles, so each call's permission check grows with the
// realm count); the floor is a bare script reading the same sections with an identity inside each realm that
// holds only that realm's view-* roles (a service-account client in the realm), each realm's token kept across
// passes. Each pass reads every realm's
// sections 4 at a time (the operator's 4 workers), after a warm-up pass (Keycloak's JIT); the CPU is the Keycloak
// process group's (/proc, operator-common.ts) less its idle rate, measured first with nothing calling it.
import { tokenForm } from '../../src/operator/keycloak/admin-identity.ts';
import { type Admin, directAdmin } from './direct-admin.ts';
import { log, pool } from './operator-common.ts';
import { type PassCost, sampleOf } from './read-sections.ts';

const floorClient = { clientId: 'bench-floor-reader', clientSecret: 'bench-floor-reader-secret' };

/** Gives `realm` the floor's identity (once): a service-account client holding realm-management's view-* roles.
 * Set-up, not measured: a 5xx is tried again (Keycloak answers some role mappings so at 1,000 realms). */
export async function grantViewIdentity(direct: Admin, realm: string): Promise<void> {
  const admin: Admin = async (...args) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await direct(...args);
      } catch (error) {
        if (attempt === 3 || !/: 5\d\d /.test((error as Error).message)) throw error;
        await new Promise((r) => setTimeout(r, 5000 * attempt));
      }
    }
  };
  const r = `/${encodeURIComponent(realm)}`;
  const find = async () => (await admin('GET', `${r}/clients?clientId=${floorClient.clientId}`))[0];
  if (!(await find()))
    await admin('POST', `${r}/clients`, {
      clientId: floorClient.clientId,
      secret: floorClient.clientSecret,
      publicClient: false,
      serviceAccountsEnabled: true,
      standardFlowEnabled: false,
    });
  const reader = await find();
  const user = await admin('GET', `${r}/clients/${reader.id}/service-account-user`);
  const [management] = await admin('GET', `${r}/clients?clientId=realm-management`);
  const roles = (await admin('GET', `${r}/clients/${management.id}/roles`)) as { name: string }[];
  const views = roles.filter((x) => x.name.startsWith('view-'));
  await admin('POST', `${r}/users/${user.id}/role-mappings/clients/${management.id}`, views);
}

/** The reads a measured pass makes at least, in rounds over the realms: fewer are within the noise of Keycloak's JIT
 * and collector at small sizes (docs/benchmarks.md). */
export const minReads = 600;

/** Keycloak's CPU rate (seconds per second) over `ms` with nothing calling it. */
export async function idleRate(cpu: () => number, ms = 20_000): Promise<number> {
  const before = cpu();
  await new Promise((r) => setTimeout(r, ms));
  return (cpu() - before) / (ms / 1000);
}

/** Waits before each call so that calls start `perS` a second at most, counted from the last reset; without `perS`
 * at once. */
export function pacer(perS?: number) {
  let [slot, from] = [0, performance.now()];
  return {
    reset: () => {
      [slot, from] = [0, performance.now()];
    },
    next: async () => {
      if (!perS) return;
      const wait = from + (slot++ * 1000) / perS - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    },
  };
}

/** A warm-up pass then measured ones over `realms` up to minReads, each realm's sections read by `reader(realm)` (a
 * path: a GET; a method and path: that call). */
async function passes(
  realms: string[],
  paths: (realm: string) => (string | [string, string])[],
  reader: (realm: string) => Promise<Admin>,
  cpu: () => number,
  idlePerS: number,
  passesPerS?: number,
): Promise<PassCost> {
  // Paced: realm passes start `passesPerS` a second at most (Keycloak's CPU per read depends on how densely reads
  // arrive, docs/benchmarks.md).
  const pace = pacer(passesPerS);
  const once = async () => {
    let reads = 0;
    await pool(realms, 4, async (realm) => {
      await pace.next();
      const read = await reader(realm);
      for (const call of paths(realm)) {
        const [method, path] = typeof call === 'string' ? ['GET', call] : call;
        await read(method, path);
        reads++;
      }
    });
    return reads;
  };
  await once();
  pace.reset();
  const [before, started] = [cpu(), performance.now()];
  let [reads, rounds] = [0, 0];
  for (; reads < minReads && rounds < 100; rounds++) reads += await once();
  const seconds = (performance.now() - started) / 1000;
  return { cpuS: cpu() - before, seconds, passes: realms.length * rounds, reads, idlePerS };
}

/** Gives the realms of a sample of `all` that lack it the floor's identity (not measured), as master's bootstrap
 * admin (`adminForm`); a realm Keycloak would not grant it in is left out of the sample, and said in `left`. */
export async function floorSample(
  baseUrl: string,
  adminForm: URLSearchParams,
  all: string[],
  granted: Set<string>,
) {
  const admin = await directAdmin(baseUrl, adminForm);
  const refused: string[] = [];
  await pool(
    sampleOf(all).filter((r) => !granted.has(r)),
    4,
    async (r) => {
      await grantViewIdentity(admin.call, r).then(
        () => granted.add(r),
        (error: Error) => refused.push(`${r} (${error.message.slice(0, 120)})`),
      );
    },
  );
  const realms = sampleOf(all).filter((r) => granted.has(r));
  return {
    admin,
    realms,
    left: refused.length ? `; left out, the floor's identity refused: ${refused.join(', ')}` : '',
  };
}

type Client = { clientId: string; clientSecret: string };

/** A reader of `baseUrl` as each realm's service account `client(realm)`, its token kept from the warm-up pass (a
 * fresh one on 401), as a client caching its tokens would, so that the measured passes are reads only. */
function serviceAccountReader(baseUrl: string, client: (realm: string) => Client) {
  const admins = new Map<string, Promise<Admin>>();
  return (realm: string) => {
    const known = admins.get(realm);
    if (known) return known;
    const made = directAdmin(baseUrl, tokenForm(client(realm)), realm).then((a) => a.call);
    admins.set(realm, made);
    return made;
  };
}

/** Passes over `realms` on `baseUrl` as each realm's service account `client(realm)` (by default the floor's view
 * identity, granted by floorSample), as densely as 4 readers go or `passesPerS` realm passes a second. */
export const serviceAccountPasses = (
  baseUrl: string,
  realms: string[],
  paths: (realm: string) => (string | [string, string])[],
  cpu: () => number,
  idlePerS: number,
  options: { client?: (realm: string) => Client; passesPerS?: number } = {},
) =>
  passes(
    realms,
    paths,
    serviceAccountReader(baseUrl, options.client ?? (() => floorClient)),
    cpu,
    idlePerS,
    options.passesPerS,
  );

/** Keycloak's idle rate, then a pass over (a sample of) `realms` as master's bootstrap admin (`adminForm`) and one
 * as each realm's view identity. */
export async function scriptPasses(
  baseUrl: string,
  adminForm: URLSearchParams,
  all: string[],
  paths: (realm: string) => string[],
  cpu: () => number,
  granted: Set<string>,
) {
  const { admin, realms, left } = await floorSample(baseUrl, adminForm, all, granted);
  log(
    `read passes at ${all.length} realms (${realms.length} of them read): idle, master admin, floor${left}`,
  );
  const idlePerS = await idleRate(cpu);
  const asAdmin = async () => admin.call;
  return {
    idlePerS,
    admin: await passes(realms, paths, asAdmin, cpu, idlePerS),
    floor: await serviceAccountPasses(baseUrl, realms, paths, cpu, idlePerS),
  };
}
