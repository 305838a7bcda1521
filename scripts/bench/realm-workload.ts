// The realms and scale benches: realms across namespaces with clients in each, created by a plain script with the
// minimal admin calls (the floor, floor.ts, on a Keycloak of its own) and then by the operator, side by side; then
// drift intervals with nothing changed. `realms` applies each realm with its clients; `scale` applies every realm first, then every
// client, and records the operator's token size and the create times as realms accumulate.
import { tokenForm } from '../../src/operator/keycloak/admin-identity.ts';
import { loadEndpointMap } from '../../src/operator/runtime/endpoint-map.ts';
import type { TestEnv } from '../testenv/harness.ts';
import { databaseCluster, identityServer, keycloakVersion } from '../testenv/identity-fixtures.ts';
import { recordedKubeletPids } from '../testenv/kubelet.ts';
import { heapFromLimit } from '../testenv/kubelet-env.ts';
import { grantSecretAccess, startOperator } from '../testenv/operator-process.ts';
import { watchCollection } from '../testenv/watch-collection.ts';
import { breakdownLines, callCounts, callsBetween } from './call-breakdown.ts';
import { tokenBytes } from './direct-admin.ts';
import { type FloorRun, runFloor } from './floor.ts';
import { describeSample, sampleMemory } from './memory-sampler.ts';
import { compareVariants } from './memory-variants.ts';
import * as c from './operator-common.ts';
import { productionRealm } from './production-realm.ts';
import { reconcileQuantiles, steadyState } from './steady-state.ts';
import type { Workload } from './workload-flags.ts';

/** Polls `count()` every 2 s until it reaches `target`; `seen(n)` is told every new count. */
async function until(
  what: string,
  target: number,
  count: () => Promise<number>,
  seen: (n: number) => Promise<void>,
) {
  const deadline = Date.now() + 6 * 3600_000;
  for (let last = -1; ; ) {
    const n = await count();
    if (n !== last) await seen(n);
    last = n;
    if (n >= target) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (${n} of ${target})`);
    await new Promise((r) => setTimeout(r, 2000));
  }
}

/** Marks at which realm counts the create times and token sizes are reported. */
const checkpoints = (realms: number) => {
  const step = realms >= 1000 ? 100 : Math.max(10, Math.round(realms / 10));
  return Array.from({ length: Math.ceil(realms / step) }, (_, i) => Math.min(realms, (i + 1) * step));
};

/** The Ready count of a kind across namespaces, kept by a watch (a list of 11,000 objects every 2 s would load
 * the API server more than the operator does). */
async function readyCount(env: TestEnv, plural: string) {
  const phases = new Map<string, string>();
  const watch = await watchCollection(env, `/apis/realmforge.dev/v1/${plural}`, {}, ({ type, object }) => {
    const key = `${object.metadata?.namespace}/${object.metadata?.name}`;
    if (type === 'DELETED') phases.delete(key);
    else phases.set(key, object.status?.phase ?? '');
  });
  return {
    ready: async () => [...phases.values()].filter((p) => p === 'Ready').length,
    stop: () => watch.stop(),
  };
}

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
  // Two servers with one spec: `idp` for the operator's realms (it grants the teams' namespaces) and `floor` for
  // the direct script's, so each side starts from an empty Keycloak.
  const resources = { requests: { cpu: '500m', memory: '1Gi' }, limits: { memory: w.keycloakMemory } };
  await env.apply(
    identityServer(ns, 'idp', 'pg', { resources, realmAuthorizationGrants: [ns, ...teams] }) as never,
  );
  await env.apply(identityServer(ns, 'floor', 'pg', { resources }) as never);
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
  const clientForm = async (server: string) =>
    tokenForm({
      clientId: await secretText(`${server}-operator-client`, 'client-id'),
      clientSecret: await secretText(`${server}-operator-client`, 'client-secret'),
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
  const [floorCpu, idpCpu] = [keycloakCpu('floor'), keycloakCpu('idp')];

  c.log(`direct script: ${w.realms} realms x ${w.clientsPerRealm} clients on the floor server`);
  const floorCpuBefore = floorCpu();
  const floor = await runFloor(urlOf('floor'), await clientForm('floor'), w, marks, example);
  const floorKeycloakCpuS = floorCpu() - floorCpuBefore;
  // The floor's Keycloak is done: it is deleted, so it takes no CPU or memory from the operator's run.
  await env.request('DELETE', `/apis/realmforge.dev/v1/namespaces/${ns}/identityservers/floor`);

  // The operator's token, and the bootstrap admin's (what the operator would send without its own client), as
  // the operator's realms accumulate in its Keycloak (master not counted).
  const baseUrl = urlOf('idp');
  const operatorForm = await clientForm('idp');
  const adminForm = tokenForm({
    username: await secretText('idp-admin-credentials', 'username'),
    password: await secretText('idp-admin-credentials', 'password'),
  });
  const tokens: string[] = [];
  const sizeAt = [10, 100, 1000].filter((n) => n <= w.realms);
  const tokenAt = async (realms: number) => {
    const admin = await tokenBytes(baseUrl, adminForm).then(
      (b) => `${b} B`,
      (e: Error) => `refused (${e.message})`,
    );
    tokens.push(`${realms} realms: ${await tokenBytes(baseUrl, operatorForm)} B (bootstrap admin ${admin})`);
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
  const cpuBefore = cpuNow();
  const started = performance.now();
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
  const operatorMarks: number[] = [];
  const watchRealms = async (n: number) => {
    for (const m of marks)
      if (n >= m && operatorMarks.length < marks.indexOf(m) + 1) {
        operatorMarks.push(performance.now() - started);
        c.log(`operator: ${m} realms Ready after ${c.seconds(performance.now() - started)}`);
      }
    for (const m of sizeAt) if (n >= m && tokens.length < sizeAt.indexOf(m) + 1) await tokenAt(m);
  };
  const indexes = Array.from({ length: w.realms }, (_, i) => i);
  c.log(`operator: applying ${w.realms} realms x ${w.clientsPerRealm} clients`);
  if (w.phased) {
    const applying = c.pool(indexes, 8, realm);
    await until('every realm to be Ready', w.realms, realmsReady.ready, watchRealms);
    await applying;
    await c.pool(indexes, 8, clients);
  } else {
    const applying = c.pool(indexes, 8, async (i) => {
      await realm(i);
      await clients(i);
    });
    await until('every realm to be Ready', w.realms, realmsReady.ready, watchRealms);
    await applying;
  }
  const realmsMs = performance.now() - started;
  let logged = 0;
  await until('every client to be Ready', w.realms * w.clientsPerRealm, clientsReady.ready, async (n) => {
    if (n - logged < 1000) return;
    logged = n;
    c.log(`operator: ${n} clients Ready after ${c.seconds(performance.now() - started)}`);
  });
  const operatorMs = performance.now() - started;
  const cpu = cpuSince(cpuBefore);
  await realmsReady.stop();
  await clientsReady.stop();
  const creation = (await c.adminCalls(op)) - before;
  const creationEnd = await op.metrics();
  const creationBreakdown = breakdownLines(
    callsBetween(callCounts(creationText), callCounts(creationEnd)),
    {},
  );
  const count = w.realms * (1 + w.clientsPerRealm);
  c.log(`steady state: ${w.intervals} drift intervals of ${w.driftS} s`);
  const steadyCpuBefore = cpuNow();
  const steady = await steadyState(op, count, w.driftS, w.intervals);
  const steadyCpu = cpuSince(steadyCpuBefore);
  const rss = c.peakRssMb(op.proc.pid);
  const peak = await memory.stop();
  await op.stop();
  report(w, {
    direct: { ...floor, keycloakCpuS: floorKeycloakCpuS },
    operator: {
      ms: operatorMs,
      realmsMs,
      calls: creation,
      marks: operatorMarks,
      quantiles: reconcileQuantiles(creationText, creationEnd),
      cpu,
    },
    steadyCpu,
    marks,
    tokens,
    resources: count,
    steady,
    creationBreakdown,
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

type Figures = {
  /** The floor's run, and the CPU its Keycloak spent meanwhile. */
  direct: FloorRun & { keycloakCpuS: number };
  operator: {
    ms: number;
    realmsMs: number;
    calls: number;
    marks: number[];
    quantiles: string;
    cpu: { keycloak: number; operator: number };
  };
  steadyCpu: { keycloak: number; operator: number };
  marks: number[];
  tokens: string[];
  resources: number;
  steady: Awaited<ReturnType<typeof steadyState>>;
  creationBreakdown: string[];
  rss: number;
  peak: string;
  idle: { bundle: number; tsc: number };
  loadAtStart: string;
};

function report(w: Workload, f: Figures): void {
  const out = (label: string, value: string) => console.log(`  ${label.padEnd(44)} ${value}`);
  console.log(
    `${w.name}${w.production ? ' (each realm the production example)' : ''}: ${w.realms} realms x ${w.clientsPerRealm} clients in ${w.namespaces} namespaces on Keycloak ${keycloakVersion} (memory limit ${w.keycloakMemory}: ${heapFromLimit({ name: 'keycloak', resources: { limits: { memory: w.keycloakMemory } } }).JAVA_OPTS_KC_HEAP}; the floor on a second one, the same); limits 100/10 TPS; drift interval ${w.driftS} s`,
  );
  out(
    'direct script (minimal calls, 4 at a time)',
    `${c.seconds(f.direct.ms)}, ${f.direct.calls} admin calls (tokens not counted)`,
  );
  out(
    'operator, first apply to all Ready',
    `all ${f.resources} Ready in ${c.seconds(f.operator.ms)} (${(f.operator.ms / f.direct.ms).toFixed(2)}x the direct script; goal <= ${w.convergenceGoal}x)${w.phased ? `; realms alone ${c.seconds(f.operator.realmsMs)}` : ''}`,
  );
  out(
    'realms created by (direct | operator Ready)',
    f.marks
      .map((m, i) => `${m}: ${c.seconds(f.direct.marks[i] ?? 0)} | ${c.seconds(f.operator.marks[i] ?? 0)}`)
      .join('; '),
  );
  out(
    'admin calls per resource at creation',
    `${(f.operator.calls / f.resources).toFixed(2)} (${f.operator.calls}; direct ${(f.direct.calls / f.resources).toFixed(2)})`,
  );
  out(
    'CPU at creation (Keycloak direct | operator)',
    `Keycloak ${f.direct.keycloakCpuS.toFixed(0)} s | ${f.operator.cpu.keycloak.toFixed(0)} s (${(f.operator.cpu.keycloak / f.direct.keycloakCpuS).toFixed(2)}x); the operator itself ${f.operator.cpu.operator.toFixed(0)} s`,
  );
  out('reconcile times at creation', f.operator.quantiles);
  out("operator's access token (goal: flat)", f.tokens.join(', '));
  for (const line of f.steady.lines) out('steady state', line);
  out(
    'steady state CPU, all intervals',
    `Keycloak ${f.steadyCpu.keycloak.toFixed(1)} s, the operator ${f.steadyCpu.operator.toFixed(1)} s`,
  );
  for (const line of f.steady.wrote.slice(0, 10)) console.log(`    wrote: ${line}`);
  console.log('  steady-state Keycloak calls by the kind that made them and by path:');
  for (const line of f.steady.breakdown) console.log(`    ${line}`);
  console.log('  admin calls at creation by kind and path (largest first):');
  for (const line of f.creationBreakdown.slice(0, 15)) console.log(`    ${line}`);
  out(
    'operator peak RSS',
    `${f.rss.toFixed(0)} MB (goal <= ${w.rssGoalMb} MB: ${(f.rss / w.rssGoalMb).toFixed(2)}x of goal)`,
  );
  if (f.peak) out('at the largest sampled RSS (every 2 s)', f.peak);
  out('operator run as', c.runAs());
  out(
    'idle operator peak RSS (nothing to do yet)',
    `bundle ${f.idle.bundle.toFixed(0)} MB, tsc output ${f.idle.tsc.toFixed(0)} MB`,
  );
  out('machine load (1/5/15 min) at start, at end', `${f.loadAtStart}; ${c.load()}`);
}
