// The realms and scale benches: one Keycloak, realms across namespaces with clients in each, created by a plain
// script with the minimal admin calls (the floor) and then by the operator, side by side; then drift intervals
// with nothing changed. `realms` applies each realm with its clients; `scale` applies every realm first, then every
// client, and records the operator's token size and the create times as realms accumulate.
import { tokenForm } from '../../src/operator/keycloak/admin-identity.ts';
import { loadEndpointMap } from '../../src/operator/runtime/endpoint-map.ts';
import type { TestEnv } from '../testenv/harness.ts';
import { databaseCluster, identityServer, keycloakVersion } from '../testenv/identity-fixtures.ts';
import { grantSecretAccess, startOperator } from '../testenv/operator-process.ts';
import { breakdownLines, callCounts, callsBetween } from './call-breakdown.ts';
import { directAdmin, tokenBytes } from './direct-admin.ts';
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
  // The teams' realms live in their own namespaces: the server grants them (spec.realmAuthorizationGrants).
  await env.apply(identityServer(ns, 'idp', 'pg', { realmAuthorizationGrants: [ns, ...teams] }) as never);
  c.log('waiting for the IdentityServer to be Ready (Keycloak starts)');
  await until(
    'the IdentityServer to be Ready',
    1,
    async () => ((await c.listPhases(env, 'identityservers', ns))[0] === 'Ready' ? 1 : 0),
    async () => {},
  );
  const secretText = async (name: string, key: string) => {
    const s = await env.core.readNamespacedSecret({ namespace: ns, name });
    return Buffer.from(s.data?.[key] ?? '', 'base64').toString('utf8');
  };
  const operatorForm = tokenForm({
    clientId: await secretText('idp-operator-client', 'client-id'),
    clientSecret: await secretText('idp-operator-client', 'client-secret'),
  });
  const baseUrl = loadEndpointMap(env.state.endpointMapFile)
    .resolve(`http://idp.${ns}.svc:8080`)
    .replace(/\/$/, '');
  const marks = checkpoints(w.realms);

  // The floor: the same realms and clients with the minimal admin calls, 4 at a time, with the operator's own
  // client (the bootstrap admin's token grows with every realm).
  c.log(`direct script: ${w.realms} realms x ${w.clientsPerRealm} clients`);
  const direct = await directAdmin(baseUrl, operatorForm);
  const directStarted = performance.now();
  const directMarks: number[] = [];
  let directRealms = 0;
  // The operator's token as realms accumulate in Keycloak (master not counted): at 10, 100 and 1,000 realms while
  // the script creates its own, and once more when the operator's are there too.
  const tokens: string[] = [];
  const sizeAt = [10, 100, 1000].filter((n) => n <= w.realms);
  const tokenAt = async (realms: number) =>
    tokens.push(`${realms} realms: ${await tokenBytes(baseUrl, operatorForm)} B`);
  const directRealm = (i: number) =>
    direct
      .call(
        'POST',
        '',
        example?.direct(`direct-${i}`) ?? { realm: `direct-${i}`, enabled: true, displayName: `Direct ${i}` },
      )
      .then(async () => {
        directRealms++;
        if (marks.includes(directRealms)) directMarks.push(performance.now() - directStarted);
        if (sizeAt.includes(directRealms)) await tokenAt(directRealms);
      });
  const directClients = async (i: number) => {
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
    await c.pool(indexes, 4, directRealm);
    await c.pool(indexes, 4, directClients);
  } else
    await c.pool(indexes, 4, async (i) => {
      await directRealm(i);
      await directClients(i);
    });
  const directMs = performance.now() - directStarted;

  // The operator: the same counts through IdentityRealms and IdentityClients, applied 8 at a time.
  const before = await c.adminCalls(op);
  const creationText = await op.metrics();
  const memory = sampleMemory(op.metrics);
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
  const ready = async (plural: string) =>
    (await c.listPhases(env, plural)).filter((p) => p === 'Ready').length;
  const operatorMarks: number[] = [];
  const watchRealms = async (n: number) => {
    for (const m of marks)
      if (n >= m && operatorMarks.length < marks.indexOf(m) + 1)
        operatorMarks.push(performance.now() - started);
  };
  c.log(`operator: applying ${w.realms} realms x ${w.clientsPerRealm} clients`);
  if (w.phased) {
    const applying = c.pool(indexes, 8, realm);
    await until('every realm to be Ready', w.realms, () => ready('identityrealms'), watchRealms);
    await applying;
    await c.pool(indexes, 8, clients);
  } else {
    const applying = c.pool(indexes, 8, async (i) => {
      await realm(i);
      await clients(i);
    });
    await until('every realm to be Ready', w.realms, () => ready('identityrealms'), watchRealms);
    await applying;
  }
  const realmsMs = performance.now() - started;
  await tokenAt(2 * w.realms);
  await until(
    'every client to be Ready',
    w.realms * w.clientsPerRealm,
    () => ready('identityclients'),
    async () => {},
  );
  const operatorMs = performance.now() - started;
  const creation = (await c.adminCalls(op)) - before;
  const creationEnd = await op.metrics();
  const creationBreakdown = breakdownLines(
    callsBetween(callCounts(creationText), callCounts(creationEnd)),
    {},
  );
  const resources = w.realms * (1 + w.clientsPerRealm);
  c.log(`steady state: ${w.intervals} drift intervals of ${w.driftS} s`);
  const steady = await steadyState(op, resources, w.driftS, w.intervals);
  const rss = c.peakRssMb(op.proc.pid);
  const peak = await memory.stop();
  await op.stop();
  report(w, {
    direct: { ms: directMs, calls: direct.calls(), marks: directMarks },
    operator: {
      ms: operatorMs,
      realmsMs,
      calls: creation,
      marks: operatorMarks,
      quantiles: reconcileQuantiles(creationText, creationEnd),
    },
    marks,
    tokens,
    resources,
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
  for await (const line of compareVariants(env, run, resources)) console.log(`    ${line}`);
}

type Figures = {
  direct: { ms: number; calls: number; marks: number[] };
  operator: { ms: number; realmsMs: number; calls: number; marks: number[]; quantiles: string };
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
    `${w.name}${w.production ? ' (each realm the production example)' : ''}: ${w.realms} realms x ${w.clientsPerRealm} clients in ${w.namespaces} namespaces on one Keycloak ${keycloakVersion} (heap -Xms64m -Xmx512m); limits 100/10 TPS`,
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
  out('reconcile times at creation', f.operator.quantiles);
  out("operator's access token (goal: flat)", f.tokens.join(', '));
  for (const line of f.steady.lines) out('steady state', line);
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
