// The realms, scale and tenants benches: realms across namespaces with clients in each, created by a plain script
// with the minimal admin calls (direct-script.ts, on a Keycloak of its own) and then by the operator, side by side;
// then drift intervals with nothing changed. `realms` and `tenants` apply each realm with its clients; `scale`
// applies every realm first, then every client, and records the operator's token size and the create times as
// realms accumulate. At each size of `cpuAt` both sides pause for a measured steady-state pass (read-passes.ts).
import { tokenForm } from '../../src/operator/keycloak/admin-identity.ts';
import { realmIdentity } from '../../src/operator/keycloak/realm-identity.ts';
import { loadEndpointMap } from '../../src/operator/runtime/endpoint-map.ts';
import type { TestEnv } from '../testenv/harness.ts';
import { databaseCluster, identityServer } from '../testenv/identity-fixtures.ts';
import { recordedKubeletPids } from '../testenv/kubelet.ts';
import { grantSecretAccess, startOperator } from '../testenv/operator-process.ts';
import { breakdownLines, callCounts, callsBetween, callTotal } from './call-breakdown.ts';
import { tokenBytes } from './direct-admin.ts';
import { runScript, scriptRealm } from './direct-script.ts';
import { describeSample, sampleMemory } from './memory-sampler.ts';
import { compareVariants } from './memory-variants.ts';
import * as c from './operator-common.ts';
import { productionRealm } from './production-realm.ts';
import { floorSample, idleRate, minReads, pacer, scriptPasses, serviceAccountPasses } from './read-passes.ts';
import { type PassCost, passCost, sectionPaths, sumCosts } from './read-sections.ts';
import { checkpoints, readyCount } from './ready-watch.ts';
import { reconcileQuantiles, steadyState } from './steady-state.ts';
import { readyPollMs, until } from './until.ts';
import type { Workload } from './workload-flags.ts';
import { passLines, report, type SizePasses } from './workload-report.ts';

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);

export async function realmWorkload(env: TestEnv, w: Workload): Promise<void> {
  const loadAtStart = c.load();
  const example = w.production ? productionRealm() : undefined;
  const ns = await env.namespace(`bench-${w.name}`);
  await grantSecretAccess(env, ns);
  await databaseCluster(env, ns, 'pg');
  const teams: string[] = [];
  for (let i = 0; i < w.namespaces; i++) {
    teams.push(await env.namespace(`bench-team-${i}`));
    await grantSecretAccess(env, teams[i] as string);
  }
  const team = (i: number) => teams[i % w.namespaces] as string;
  const limits = { KEYCLOAK_API_GLOBAL_RATE_LIMIT_TPS: '100', KEYCLOAK_API_NAMESPACE_RATE_LIMIT_TPS: '10' };
  const image = c.asTheImageRuns();
  // The load cost side by side: the bundle and the tsc output, each started with nothing to reconcile.
  const idle = { bundle: await c.idleRss(env, c.bundleEntry), tsc: await c.idleRss(env, c.tscEntry) };
  const args = [`--drift-interval=${w.driftS}s`];
  const op = await startOperator(env, { args, env: { ...image.env, ...limits }, entry: image.entry });
  // Two servers with one spec: `idp` for the operator's realms (it grants the teams' namespaces) and `script` for
  // the direct script's, so each side starts from an empty Keycloak.
  const resources = { requests: { cpu: '500m', memory: '1Gi' }, limits: { memory: w.keycloakMemory } };
  await env.apply(
    identityServer(ns, 'idp', 'pg', { resources, realmAuthorizationGrants: [ns, ...teams] }) as never,
  );
  await env.apply(identityServer(ns, 'script', 'pg', { resources }) as never);
  c.log('waiting for both IdentityServers to be Ready (two Keycloaks start)');
  await until(
    'the IdentityServers to be Ready',
    2,
    async () => (await c.listPhases(env, 'identityservers', ns)).filter((p) => p === 'Ready').length,
    async () => {},
  );
  const secretText = async (name: string, key: string) => {
    const s = await env.core.readNamespacedSecret({ namespace: ns, name }).catch(() => undefined);
    return Buffer.from(s?.data?.[key] ?? '', 'base64').toString('utf8');
  };
  // The bootstrap admin of a server (master's `admin` role), by password grant as teams script it.
  const adminFormOf = async (server: string) =>
    tokenForm({
      username: await secretText(`${server}-admin-credentials`, 'username'),
      password: await secretText(`${server}-admin-credentials`, 'password'),
    });
  const urlOf = (server: string) =>
    loadEndpointMap(env.state.endpointMapFile).resolve(`http://${server}.${ns}.svc:8080`).replace(/\/$/, '');
  const marks = checkpoints(w.realms);
  // Each server's Keycloak process group, for the CPU each side cost Keycloak (the wall times move with the load).
  const pids = recordedKubeletPids(env.state.runDir);
  const keycloakCpu = (server: string) => {
    const key = Object.keys(pids).find((k) => k.startsWith(`${ns}/${server}-`));
    return key ? () => c.groupCpuSeconds(pids[key] as number) : () => Number.NaN;
  };
  const [scriptCpu, idpCpu] = [keycloakCpu('script'), keycloakCpu('idp')];
  // The sections each side's steady-state pass reads in a realm holding `clients` clients.
  const sections = (clients: number) => (realm: string) =>
    sectionPaths(
      realm,
      example?.spec,
      range(0, clients).map((k) => `app-${k}`),
    );
  const clientsAt = (size: number) => (w.phased && size < w.realms ? 0 : w.clientsPerRealm);

  c.log(`direct script: ${w.realms} realms x ${w.clientsPerRealm} clients on the script's server`);
  const scriptUrl = urlOf('script');
  const scriptForm = await adminFormOf('script');
  const reads = new Map<number, Awaited<ReturnType<typeof scriptPasses>>>();
  const granted = new Set<string>();
  let pausedCpu = 0;
  const scriptCpuBefore = scriptCpu();
  const script = await runScript(
    scriptUrl,
    scriptForm,
    w,
    marks,
    async (size) => {
      const before = scriptCpu();
      const realms = range(0, size).map(scriptRealm);
      reads.set(
        size,
        await scriptPasses(scriptUrl, scriptForm, realms, sections(clientsAt(size)), scriptCpu, granted),
      );
      pausedCpu += scriptCpu() - before;
    },
    example,
  );
  const scriptKeycloakCpuS = scriptCpu() - scriptCpuBefore - pausedCpu;
  // The script's Keycloak is done: it is deleted, so it takes no CPU or memory from the operator's run.
  await env.request('DELETE', `/apis/realmforge.dev/v1/namespaces/${ns}/identityservers/script`);

  // The operator's token, and the bootstrap admin's (what the operator would send without its own client), as
  // the operator's realms accumulate in its Keycloak (master not counted).
  const baseUrl = urlOf('idp');
  const operatorForm = tokenForm({
    clientId: await secretText('idp-operator-client', 'client-id'),
    clientSecret: await secretText('idp-operator-client', 'client-secret'),
  });
  const adminForm = await adminFormOf('idp');
  const tokens: string[] = [];
  const sizeAt = [10, 100, 1000].filter((n) => n <= w.realms);
  const tokenAt = async (realms: number) => {
    const admin = await tokenBytes(baseUrl, adminForm).then(
      (b) => `${b} B`,
      (e: Error) => `refused (${e.message})`,
    );
    const own = await tokenBytes(baseUrl, operatorForm).then(
      (b) => `${b} B`,
      (e: Error) => `refused (${e.message})`,
    );
    tokens.push(`${realms} realms: ${own} (bootstrap admin ${admin})`);
  };

  // The operator: the same counts through IdentityRealms and IdentityClients, applied 8 at a time.
  const before = await c.adminCalls(op);
  const creationText = await op.metrics();
  const memory = sampleMemory(op.metrics);
  const realmsReady = await readyCount(env, 'identityrealms');
  const clientsReady = await readyCount(env, 'identityclients');
  // CPU seconds of the operator's Keycloak and of the operator, and their growth since `before`.
  const cpuNow = () => ({ keycloak: idpCpu(), operator: c.cpuSeconds(op.proc.pid) });
  const cpuSince = (before: ReturnType<typeof cpuNow>) => {
    const now = cpuNow();
    return { keycloak: now.keycloak - before.keycloak, operator: now.operator - before.operator };
  };
  const realm = (i: number) =>
    env.apply({
      apiVersion: 'realmforge.dev/v1',
      kind: 'IdentityRealm',
      metadata: { name: `realm-${i}`, namespace: team(i) },
      spec: {
        ...example?.spec,
        serverRef: { name: 'idp', namespace: ns },
        displayName: `Realm ${i}`,
        clientAuthorizationGrants: [team(i)],
      },
    } as never);
  const clients = async (i: number) => {
    for (let k = 0; k < w.clientsPerRealm; k++)
      await env.apply({
        apiVersion: 'realmforge.dev/v1',
        kind: 'IdentityClient',
        metadata: { name: `app-${i}-${k}`, namespace: team(i) },
        spec: {
          realmRef: { name: `realm-${i}` },
          clientId: `app-${k}`,
          redirectUris: ['https://app.example.test/*'],
        },
      } as never);
  };
  // The operator's steady-state pass at a size: drift intervals with Keycloak's CPU around them, after one interval
  // to settle (the passes after creation's last writes, e.g. a client's read after its create, belong to creation).
  // Keycloak's idle rate is measured first with the operator stopped (SIGSTOP: no call reaches Keycloak, and the
  // resyncs that fall due meanwhile run once it goes on, inside the window).
  const passes = new Map<number, SizePasses>();
  const grantedBeside = new Set<string>();
  const operatorPass = async (size: number, intervals: number) => {
    const resources = size * (1 + clientsAt(size));
    await new Promise((resolve) => setTimeout(resolve, w.driftS * 1000));
    process.kill(op.proc.pid as number, 'SIGSTOP');
    const idlePerS = await idleRate(idpCpu).finally(() => process.kill(op.proc.pid as number, 'SIGCONT'));
    const kcBefore = idpCpu();
    const steady = await steadyState(op, resources, w.driftS, intervals);
    const sum = (f: (i: (typeof steady.intervals)[number]) => number) =>
      steady.intervals.reduce((a, i) => a + f(i), 0);
    const cost = {
      cpuS: idpCpu() - kcBefore,
      seconds: intervals * w.driftS,
      passes: sum((i) => i.realmResyncs),
      reads: sum((i) => i.reads),
      idlePerS,
    };
    // The floor also reads the operator's realms on its Keycloak, in turn with the operator woken at once (twice
    // each): one JVM in one state for both, which two Keycloaks after different histories are not. Keycloak's CPU
    // per read grows as reads come less densely, so the floor is read both as densely as it goes and at the pace the
    // operator's woken passes came; beside them, the operator's one read sent by the bench as its realm identity at
    // that pace (the operator's requests apart from the operator).
    const beside = await floorSample(
      baseUrl,
      adminForm,
      range(0, size).map((i) => `realm-${i}`),
      grantedBeside,
    );
    c.log(
      `at ${size} realms: the operator woken at once and the floor on its Keycloak, in turn${beside.left}`,
    );
    const realmKey = await secretText('idp-operator-client', 'realm-key');
    const cursor = (realm: string) => [`/${encodeURIComponent(realm)}/admin-events?first=0&max=1`];
    const floorPass = (
      paths: Parameters<typeof serviceAccountPasses>[2],
      options?: Parameters<typeof serviceAccountPasses>[5],
    ) => serviceAccountPasses(baseUrl, beside.realms, paths, idpCpu, idlePerS, options);
    const turns: Record<'burst' | 'spread' | 'dense' | 'paced' | 'replay', PassCost>[] = [];
    let passesPerS = 0;
    for (let turn = 1; turn <= 2; turn++) {
      const burst = await wokenPass(size, idlePerS);
      passesPerS = burst.passes / burst.seconds;
      const measuredTurn = {
        burst,
        spread: await wokenPass(size, idlePerS, passesPerS),
        dense: await floorPass(sections(clientsAt(size))),
        paced: await floorPass(sections(clientsAt(size)), { passesPerS }),
        replay: await floorPass(cursor, { passesPerS, client: (realm) => realmIdentity(realmKey, realm) }),
      };
      const ms = (x: PassCost) => (passCost(x).perPass * 1000).toFixed(1);
      c.log(
        `at ${size} realms, turn ${turn}, Keycloak CPU per realm pass: operator ${ms(burst)} ms woken at once (${passesPerS.toFixed(0)} passes/s), ${ms(measuredTurn.spread)} ms woken one by one at that pace; floor ${ms(measuredTurn.dense)} ms densely, ${ms(measuredTurn.paced)} ms at the operator's pace; the operator's read sent by the bench ${ms(measuredTurn.replay)} ms`,
      );
      turns.push(measuredTurn);
    }
    const both = (k: keyof (typeof turns)[number]) => sumCosts(turns[0]![k], turns[1]![k]);
    // Issue #36's other candidate change signal, beside the replayed cursor read: a partial export, by the same
    // identity at the same pace (it needs manage-realm, which the floor's view roles lack).
    const exportOf = (realm: string): [string, string][] => [
      ['POST', `/${encodeURIComponent(realm)}/partial-export?exportClients=true&exportGroupsAndRoles=true`],
    ];
    const partialExport = await floorPass(exportOf, {
      passesPerS,
      client: (realm) => realmIdentity(realmKey, realm),
    }).catch((error: Error) => error.message);
    const measured = {
      size,
      operator: cost,
      steady,
      burst: both('burst'),
      spread: both('spread'),
      floorDense: both('dense'),
      floorPaced: both('paced'),
      replay: both('replay'),
      partialExport,
      script: reads.get(size),
    };
    passes.set(size, measured);
    for (const line of passLines([measured])) c.log(line);
    return steady;
  };
  // The same pass with every realm woken by an annotation, so its reads come as densely as the operator goes:
  // over an interval, Keycloak's idle rate misjudged by a little outweighs reads of a few ms each. At once (a
  // warm-up round first and rounds up to minReads, as the floor's), or one realm after another at `passesPerS`
  // a second for as many wakes, the arrival the paced floor has: a steady state's resyncs come spread by their
  // timers, not in rounds.
  let bursts = 0;
  const realmPasses = () =>
    op.counter('realmforge_reconcile_total', { kind: 'IdentityRealm', result: 'success' });
  const wake = async (i: number) => {
    const path = `/apis/realmforge.dev/v1/namespaces/${team(i)}/identityrealms/realm-${i}`;
    const patch = { metadata: { annotations: { 'bench.realmforge.dev/burst': String(++bursts) } } };
    const res = await env.request('PATCH', path, patch, 'application/merge-patch+json');
    if (res.status !== 200) throw new Error(`PATCH ${path}: HTTP ${res.status}`);
  };
  const resynced = (from: number, n: number) =>
    until(
      'every woken realm resynced',
      n,
      async () => (await realmPasses()) - from,
      async () => {},
      100,
    );
  const round = async (size: number) => {
    const from = await realmPasses();
    await c.pool(range(0, size), 8, wake);
    await resynced(from, size);
  };
  const wokenPass = async (size: number, idlePerS: number, passesPerS?: number): Promise<PassCost> => {
    if (!passesPerS) await round(size);
    const [from, text, kcBefore, started] = [
      await realmPasses(),
      await op.metrics(),
      idpCpu(),
      performance.now(),
    ];
    const wakes = Math.ceil(minReads / size) * size;
    if (passesPerS) {
      const [pace, woken] = [pacer(passesPerS), [] as Promise<void>[]];
      for (let k = 0; k < wakes; k++) {
        await pace.next();
        woken.push(wake(k % size));
      }
      await Promise.all(woken);
      await resynced(from, wakes);
    } else for (let woken = 0; woken < wakes; woken += size) await round(size);
    const calls = callsBetween(callCounts(text), callCounts(await op.metrics()));
    return {
      cpuS: idpCpu() - kcBefore,
      seconds: (performance.now() - started) / 1000,
      passes: (await realmPasses()) - from,
      reads: callTotal(calls, (method) => method === 'GET'),
      idlePerS,
    };
  };
  let pausedMs = 0;
  let pausedOperatorCpu = { keycloak: 0, operator: 0 };
  // The pauses' calls are the first realms' resyncs, not creation: counted as if made before it.
  const creationFrom = callCounts(creationText);
  let pausedAdminCalls = 0;
  const cpuBefore = cpuNow();
  const started = performance.now();
  const elapsed = () => performance.now() - started - pausedMs;
  const operatorMarks: number[] = [];
  const watchRealms = async (n: number) => {
    for (const m of marks)
      if (n >= m && operatorMarks.length < marks.indexOf(m) + 1) {
        operatorMarks.push(elapsed());
        c.log(`operator: ${m} realms Ready after ${c.seconds(elapsed())}`);
      }
    for (const m of sizeAt) if (n >= m && tokens.length < sizeAt.indexOf(m) + 1) await tokenAt(m);
  };
  c.log(`operator: applying ${w.realms} realms x ${w.clientsPerRealm} clients`);
  let done = 0;
  for (const size of [...w.cpuAt.filter((n) => n < w.realms), w.realms]) {
    const indexes = range(done, size);
    const applying = c.pool(indexes, 8, async (i) => {
      await realm(i);
      if (!w.phased) await clients(i);
    });
    await until('every realm to be Ready', size, realmsReady.ready, watchRealms, readyPollMs);
    await applying;
    if (!w.phased)
      await until(
        'every client to be Ready',
        size * w.clientsPerRealm,
        clientsReady.ready,
        async () => {},
        readyPollMs,
      );
    done = size;
    if (size === w.realms) break;
    c.log(`operator: steady-state pass at ${size} realms`);
    const [at, cpuAt, callsAt, adminAt] = [
      performance.now(),
      cpuNow(),
      callCounts(await op.metrics()),
      await c.adminCalls(op),
    ];
    await operatorPass(size, 1);
    for (const [key, n] of callsBetween(callsAt, callCounts(await op.metrics())))
      creationFrom.set(key, (creationFrom.get(key) ?? 0) + n);
    pausedAdminCalls += (await c.adminCalls(op)) - adminAt;
    const spent = cpuSince(cpuAt);
    pausedOperatorCpu = {
      keycloak: pausedOperatorCpu.keycloak + spent.keycloak,
      operator: pausedOperatorCpu.operator + spent.operator,
    };
    pausedMs += performance.now() - at;
  }
  const realmsMs = elapsed();
  if (w.phased) await c.pool(range(0, w.realms), 8, clients);
  let logged = 0;
  await until(
    'every client to be Ready',
    w.realms * w.clientsPerRealm,
    clientsReady.ready,
    async (n) => {
      if (n - logged < 1000) return;
      logged = n;
      c.log(`operator: ${n} clients Ready after ${c.seconds(elapsed())}`);
    },
    readyPollMs,
  );
  const operatorMs = elapsed();
  const spent = cpuSince(cpuBefore);
  const cpu = {
    keycloak: spent.keycloak - pausedOperatorCpu.keycloak,
    operator: spent.operator - pausedOperatorCpu.operator,
  };
  await realmsReady.stop();
  await clientsReady.stop();
  const creation = (await c.adminCalls(op)) - before - pausedAdminCalls;
  const creationEnd = await op.metrics();
  const creationCalls = callsBetween(creationFrom, callCounts(creationEnd));
  const count = w.realms * (1 + w.clientsPerRealm);
  c.log(`steady state: ${w.intervals} drift intervals of ${w.driftS} s`);
  const steadyCpuBefore = cpuNow();
  const steady = await operatorPass(w.realms, w.intervals);
  const steadyCpu = cpuSince(steadyCpuBefore);
  const rss = c.peakRssMb(op.proc.pid);
  const peak = await memory.stop();
  await op.stop();
  report(w, {
    direct: { ...script, keycloakCpuS: scriptKeycloakCpuS },
    operator: {
      ms: operatorMs,
      realmsMs,
      calls: creation,
      marks: operatorMarks,
      quantiles: reconcileQuantiles(creationText, creationEnd),
      cpu,
    },
    passes: w.cpuAt.map((size) => passes.get(size) ?? { size, script: reads.get(size) }),
    steadyCpu,
    marks,
    tokens,
    resources: count,
    steady,
    creationCalls,
    creationBreakdown: breakdownLines(creationCalls, {}),
    rss,
    peak: peak ? describeSample(peak) : '',
    idle,
    loadAtStart,
  });
  if (!w.variants) return;
  console.log('  memory settings side by side (operator restarted, first resync of every resource):');
  const run = { entry: image.entry, args, env: { ...image.env, ...limits } };
  for await (const line of compareVariants(env, run, count)) console.log(`    ${line}`);
}
