// `npm run bench:operator -- servers|realms`: the real operator (under its ServiceAccount) against a private test
// environment, measured side by side with its goals in one run.
//   servers: 100 IdentityServers applied at once, no Keycloak processes (no process kubelet): time until every
//            one is applied and Provisioning, API writes per server, operator peak RSS.
//   realms:  50 realms with 4 clients each on one Keycloak: time from apply to all Ready, admin calls per realm and
//            per client at creation and per steady-state resync (broken down by the kind that made them and by path
//            template), next to a plain script doing the minimal calls; peak RSS against its goal, split at its
//            largest sample into V8 heap spaces, external memory and the rest. Both cases run the bundle.
//            With --production every realm is examples/identityrealm-production.yaml (all its sections, roles and
//            groups; SMTP left out: it needs a Secret per namespace) and the script posts the same realm.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { operatorNodeOptions } from '../../src/operator/compile/operator-deployment.ts';
import { compileRealm } from '../../src/operator/compile/realm-representation.ts';
import { loadEndpointMap } from '../../src/operator/runtime/endpoint-map.ts';
import { down, up } from '../testenv/env.ts';
import { eventually, type TestEnv, testEnv } from '../testenv/harness.ts';
import { databaseCluster, identityServer } from '../testenv/identity-fixtures.ts';
import {
  grantSecretAccess,
  installOperatorRbac,
  type OperatorProcess,
  startOperator,
} from '../testenv/operator-process.ts';
import { breakdownLines, callCounts, callsBetween, callTotal } from './call-breakdown.ts';
import { describeSample, sampleMemory } from './memory-sampler.ts';
import { userProfileComponent } from './user-profile-component.ts';

const root = join(import.meta.dirname, '..', '..');
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function peakRssMb(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

async function listPhases(env: TestEnv, plural: string, namespace?: string): Promise<string[]> {
  const path = namespace
    ? `/apis/realmforge.dev/v1/namespaces/${namespace}/${plural}`
    : `/apis/realmforge.dev/v1/${plural}`;
  const res = await env.request('GET', path);
  return (res.body.items as { status?: { phase?: string } }[]).map((o) => o.status?.phase ?? '');
}

// The operator as its image runs it: the bundle (dist/operator/realmforge.mjs, no type stripping) with the
// Deployment's V8 flags. BENCH_NODE_OPTIONS replaces the flags (BENCH_NODE_OPTIONS= runs without any) and
// BENCH_OPERATOR_BUILD=tsc runs the unbundled tsc output instead, to measure what each is worth.
const nodeOptions = () => process.env.BENCH_NODE_OPTIONS ?? operatorNodeOptions;
const unbundled = () => process.env.BENCH_OPERATOR_BUILD === 'tsc';
const runAs = () =>
  `node ${unbundled() ? 'dist/src/operator/cli/main.js (tsc, unbundled)' : 'dist/operator/realmforge.mjs (bundle)'} with NODE_OPTIONS="${nodeOptions()}"`;
let built = false;
function asTheImageRuns(): { env: Record<string, string>; entry: string } {
  if (!built) {
    log('building dist/ (the JavaScript the image runs)');
    execFileSync(process.execPath, [join(root, 'scripts', 'build.ts')], { cwd: root, stdio: 'ignore' });
    built = true;
  }
  return {
    env: { NODE_OPTIONS: nodeOptions() },
    entry: unbundled()
      ? join(root, 'dist', 'src', 'operator', 'cli', 'main.js')
      : join(root, 'dist', 'operator', 'realmforge.mjs'),
  };
}

/** Peak RSS of the operator started from `entry` with nothing to reconcile yet (its load cost), after `ms`. */
async function idleRss(env: TestEnv, entry: string, ms = 8000): Promise<number> {
  const op = await startOperator(env, { env: { NODE_OPTIONS: nodeOptions() }, entry });
  await new Promise((r) => setTimeout(r, ms));
  const rss = peakRssMb(op.proc.pid);
  await op.stop();
  return rss;
}

/** The machine's load averages (1, 5, 15 min): other work on the machine moves every timing. */
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const kubeWrites = async (op: OperatorProcess) => {
  let total = 0;
  for (const verb of ['apply', 'apply-status', 'delete', 'event'])
    total += await op.counter('realmforge_kube_requests_total', { verb });
  return total;
};

async function servers(env: TestEnv): Promise<void> {
  const loadAtStart = load();
  const count = 100;
  const ns = await env.namespace('bench-servers');
  await grantSecretAccess(env, ns);
  await databaseCluster(env, ns, 'pg');
  const op = await startOperator(env, { args: ['--drift-interval=60s'], ...asTheImageRuns() });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: count }, (_, i) => env.apply(identityServer(ns, `kc-${i}`, 'pg') as never)),
  );
  const applied = performance.now() - started;
  await eventually(`${count} servers to be Provisioning`, 600_000, async () => {
    const phases = await listPhases(env, 'identityservers', ns);
    return phases.length === count && phases.every((p) => p === 'Provisioning') ? true : undefined;
  });
  const converged = performance.now() - started;
  const writes = await kubeWrites(op);
  await new Promise((r) => setTimeout(r, 15_000)); // a poll of every not-Ready server (every 10 s)
  const later = await kubeWrites(op);
  const rss = peakRssMb(op.proc.pid);
  await op.stop();
  const perServer = writes / count;
  console.log(
    `servers: ${count} IdentityServers applied at once (no Keycloak processes), operator under its ServiceAccount`,
  );
  console.log(`  all applied by the client     ${seconds(applied)}`);
  console.log(`  all Provisioning              ${seconds(converged)}`);
  console.log(
    `  API writes per server         ${perServer.toFixed(2)} (goal <= 8: ${(perServer / 8).toFixed(2)}x of goal)`,
  );
  console.log(`  writes during 15 s of polls   ${later - writes}`);
  console.log(
    `  operator peak RSS             ${rss.toFixed(0)} MB (goal <= 150 MB: ${(rss / 150).toFixed(2)}x of goal)`,
  );
  console.log(`  operator run as               ${runAs()}`);
  console.log(`  machine load (1/5/15 min)     ${loadAtStart} at start; ${load()} at end`);
}

type Admin = (method: string, path: string, body?: unknown) => Promise<Response>;

async function directAdmin(
  baseUrl: string,
  username: string,
  password: string,
): Promise<{ call: Admin; calls: () => number }> {
  // Admin calls only (token requests are not counted, as for the operator); a fresh token on 401 (they last 60 s).
  let calls = 0;
  const login = async () => {
    const res = await fetch(`${baseUrl}/realms/master/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'password', client_id: 'admin-cli', username, password }),
    });
    return ((await res.json()) as { access_token: string }).access_token;
  };
  let token = await login();
  const send = (method: string, path: string, body: unknown) =>
    fetch(`${baseUrl}/admin/realms${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return {
    calls: () => calls,
    call: async (method, path, body) => {
      calls++;
      let r = await send(method, path, body);
      if (r.status === 401) {
        await r.arrayBuffer();
        token = await login();
        r = await send(method, path, body);
      }
      await r.arrayBuffer();
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status}`);
      return r;
    },
  };
}

async function pool<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: size }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

const adminCalls = async (op: OperatorProcess, method?: string) =>
  (await op.counter('realmforge_keycloak_api_requests_total', method ? { method } : {})) -
  (method === 'GET' ? 0 : await op.counter('realmforge_keycloak_api_token_requests_total'));

type GroupSpec = { name: string; parent?: string } & Record<string, unknown>;
/** Groups declared flat with parent paths, nested as Keycloak's import takes them. */
const groupTree = (groups: GroupSpec[], parent: string): Record<string, unknown>[] =>
  groups
    .filter((g) => (g.parent ?? '') === parent)
    .map(({ parent: _, ...g }) => ({ ...g, subGroups: groupTree(groups, `${parent}/${g.name}`) }));

type FlowSpec = {
  alias: string;
  description?: string;
  providerId?: string;
  topLevel?: boolean;
  executions?: {
    authenticator?: string;
    subFlow?: string;
    requirement: string;
    authenticatorConfig?: { alias: string; config?: Record<string, string> };
  }[];
};
/** Flows as Keycloak's realm import takes them: executions by priority, sub-flows by alias, configs apart. */
const importedFlows = (flows: FlowSpec[]) => ({
  authenticationFlows: flows.map((f) => ({
    alias: f.alias,
    description: f.description ?? '',
    providerId: f.providerId ?? 'basic-flow',
    topLevel: f.topLevel !== false,
    builtIn: false,
    authenticationExecutions: (f.executions ?? []).map((e, i) => ({
      ...(e.subFlow ? { flowAlias: e.subFlow, authenticatorFlow: true } : { authenticator: e.authenticator }),
      ...(e.authenticatorConfig ? { authenticatorConfig: e.authenticatorConfig.alias } : {}),
      requirement: e.requirement,
      priority: (i + 1) * 10,
      userSetupAllowed: false,
    })),
  })),
  authenticatorConfig: flows.flatMap((f) =>
    (f.executions ?? []).flatMap((e) => (e.authenticatorConfig ? [e.authenticatorConfig] : [])),
  ),
});

/** The production example's settings (everything but its server, grants and SMTP), and the same realm as the
 * direct script posts it: the compiled representation with its roles and groups, in one call. */
function productionRealm() {
  const example = parse(readFileSync(join(root, 'examples', 'identityrealm-production.yaml'), 'utf8'));
  const {
    serverRef: _s,
    clientAuthorizationGrants: _g,
    smtp: _m,
    deletionPolicy: _d,
    ...spec
  } = example.spec;
  const direct = (name: string) => ({
    ...compileRealm({
      ...example,
      metadata: { name, namespace: 'bench' },
      spec: { ...example.spec, smtp: undefined },
    }),
    // Keycloak's import takes composites as the spec writes them, the default roles as the composite
    // default-roles-<realm> (Keycloak's own defaults included) and subgroups nested.
    roles: {
      realm: [
        ...spec.roles,
        {
          name: `default-roles-${name}`,
          composites: {
            // Keycloak 26.7's new realms have no uma_authorization role: naming it fails the import (HTTP 500).
            realm: ['offline_access', ...(spec.defaultRoles?.realm ?? [])],
            client: { account: ['view-profile', 'manage-account'], ...spec.defaultRoles?.client },
          },
        },
      ],
    },
    defaultRole: { name: `default-roles-${name}` },
    groups: groupTree(spec.groups, ''),
    ...importedFlows(spec.authenticationFlows ?? []),
    localizationTexts: spec.localization?.messages ?? {},
    // The user profile is a component in Keycloak's import: the whole document, the built-in attributes the spec
    // does not declare as a new realm has them.
    ...(spec.userProfile ? { components: userProfileComponent(spec.userProfile) } : {}),
    clientScopes: spec.clientScopes.map((c: Record<string, any>) => ({
      ...c,
      protocol: 'openid-connect',
      protocolMappers: c.protocolMappers.map((m: Record<string, unknown>) => ({
        ...m,
        protocol: 'openid-connect',
      })),
    })),
  });
  return { spec: spec as Record<string, unknown>, direct };
}

async function realms(env: TestEnv, production: boolean): Promise<void> {
  const loadAtStart = load();
  const example = production ? productionRealm() : undefined;
  const realmCount = 50;
  const clientsPerRealm = 4;
  const namespaces = 10;
  const ns = await env.namespace('bench-realms');
  await grantSecretAccess(env, ns);
  await databaseCluster(env, ns, 'pg');
  const teams: string[] = [];
  for (let i = 0; i < namespaces; i++) {
    teams.push(await env.namespace(`bench-team-${i}`));
    await grantSecretAccess(env, teams[i]);
  }
  const limits = { KEYCLOAK_API_GLOBAL_RATE_LIMIT_TPS: '100', KEYCLOAK_API_NAMESPACE_RATE_LIMIT_TPS: '10' };
  const drift = 20;
  const image = asTheImageRuns();
  // The load cost side by side: the bundle and the tsc output, each started with nothing to reconcile.
  const idle = {
    bundle: await idleRss(env, join(root, 'dist', 'operator', 'realmforge.mjs')),
    tsc: await idleRss(env, join(root, 'dist', 'src', 'operator', 'cli', 'main.js')),
  };
  const op = await startOperator(env, {
    args: [`--drift-interval=${drift}s`],
    env: { ...image.env, ...limits },
    entry: image.entry,
  });
  // The teams' realms live in their own namespaces: the server grants them (spec.realmAuthorizationGrants).
  await env.apply(identityServer(ns, 'idp', 'pg', { realmAuthorizationGrants: [ns, ...teams] }) as never);
  log('waiting for the IdentityServer to be Ready (Keycloak starts)');
  await eventually('the IdentityServer to be Ready', 600_000, async () =>
    (await listPhases(env, 'identityservers', ns))[0] === 'Ready' ? true : undefined,
  );
  const secret = await env.core.readNamespacedSecret({ namespace: ns, name: 'idp-admin-credentials' });
  const text = (k: string) => Buffer.from(secret.data?.[k] ?? '', 'base64').toString('utf8');
  const baseUrl = loadEndpointMap(env.state.endpointMapFile)
    .resolve(`http://idp.${ns}.svc:8080`)
    .replace(/\/$/, '');

  // The floor: a plain script creating the same realms and clients with the minimal admin calls, 4 at a time.
  const direct = await directAdmin(baseUrl, text('username'), text('password'));
  const directStarted = performance.now();
  await pool(
    Array.from({ length: realmCount }, (_, i) => i),
    4,
    async (i) => {
      await direct.call(
        'POST',
        '',
        example?.direct(`direct-${i}`) ?? { realm: `direct-${i}`, enabled: true, displayName: `Direct ${i}` },
      );
      for (let c = 0; c < clientsPerRealm; c++) {
        await direct.call('POST', `/direct-${i}/clients`, {
          clientId: `app-${c}`,
          protocol: 'openid-connect',
          publicClient: false,
          redirectUris: ['https://app.example.test/*'],
        });
      }
    },
  );
  const directMs = performance.now() - directStarted;

  const before = await adminCalls(op);
  const creationCalls = callCounts(await op.metrics());
  const memory = sampleMemory(op.metrics);
  const started = performance.now();
  await pool(
    Array.from({ length: realmCount }, (_, i) => i),
    8,
    async (i) => {
      const team = teams[i % namespaces];
      await env.apply({
        apiVersion: 'realmforge.dev/v1',
        kind: 'IdentityRealm',
        metadata: { name: `realm-${i}`, namespace: team },
        spec: {
          ...example?.spec,
          serverRef: { name: 'idp', namespace: ns },
          displayName: `Realm ${i}`,
          clientAuthorizationGrants: [team],
        },
      } as never);
      for (let c = 0; c < clientsPerRealm; c++) {
        await env.apply({
          apiVersion: 'realmforge.dev/v1',
          kind: 'IdentityClient',
          metadata: { name: `app-${i}-${c}`, namespace: team },
          spec: {
            realmRef: { name: `realm-${i}` },
            clientId: `app-${c}`,
            redirectUris: ['https://app.example.test/*'],
          },
        } as never);
      }
    },
  );
  log('waiting for every realm and client to be Ready');
  await eventually('every realm and client to be Ready', 900_000, async () => {
    const r = await listPhases(env, 'identityrealms');
    const c = await listPhases(env, 'identityclients');
    return r.filter((p) => p === 'Ready').length === realmCount &&
      c.filter((p) => p === 'Ready').length === realmCount * clientsPerRealm
      ? true
      : undefined;
  });
  const operatorMs = performance.now() - started;
  const creation = (await adminCalls(op)) - before;
  const creationBreakdown = breakdownLines(callsBetween(creationCalls, callCounts(await op.metrics())), {});
  // Steady state: one full drift interval (plus margin) with nothing changed.
  const kinds = ['IdentityServer', 'IdentityRealm', 'IdentityClient'];
  const reconcilesByKind = async () =>
    Object.fromEntries(
      await Promise.all(
        kinds.map(async (kind) => [kind, await op.counter('realmforge_reconcile_total', { kind })]),
      ),
    ) as Record<string, number>;
  const reconciles = async () => {
    const by = await reconcilesByKind();
    return (by.IdentityRealm ?? 0) + (by.IdentityClient ?? 0);
  };
  const steadyStart = {
    reconciles: await reconciles(),
    byKind: await reconcilesByKind(),
    calls: callCounts(await op.metrics()),
  };
  const steadyLog = op.logs().length;
  await new Promise((r) => setTimeout(r, (drift + 5) * 1000));
  // Reads and writes from the counts by path (a token request is neither; counting it by the totals could split
  // one between the two snapshots).
  const steadyCalls = callsBetween(steadyStart.calls, callCounts(await op.metrics()));
  const gets = callTotal(steadyCalls, (method) => method === 'GET');
  const writes = callTotal(steadyCalls, (method, path) => method !== 'GET' && !path.endsWith('/token'));
  const resyncs = (await reconciles()) - steadyStart.reconciles;
  const byKind = await reconcilesByKind();
  const resyncsByKind = Object.fromEntries(
    kinds.map((k) => [k, (byKind[k] ?? 0) - (steadyStart.byKind[k] ?? 0)]),
  );
  const breakdown = breakdownLines(steadyCalls, resyncsByKind);
  // What wrote during the steady state, from the reconcile log lines (each names its writes and errors).
  const steadyWrites = op
    .logs()
    .slice(steadyLog)
    .filter((l) => l.writes?.length || l.result === 'error')
    .map((l) => `${l.kind} ${l.namespace}/${l.name}: ${l.error ?? l.writes.join(', ')}`);
  const rss = peakRssMb(op.proc.pid);
  const peak = await memory.stop();
  await op.stop();
  const resources = realmCount * (1 + clientsPerRealm);
  console.log(
    `realms${production ? ' (each the production example)' : ''}: ${realmCount} realms x ${clientsPerRealm} clients on one Keycloak ${process.env.TESTENV_KEYCLOAK_VERSION ?? ''}; limits 100/10 TPS; 10 namespaces`,
  );
  console.log(
    `  direct script (minimal calls, 4 at a time)  ${seconds(directMs)}, ${direct.calls()} admin calls (tokens not counted)`,
  );
  console.log(
    `  operator, apply to all Ready                 ${seconds(operatorMs)} (${(operatorMs / directMs).toFixed(2)}x the direct script; goal <= 1.5x)`,
  );
  console.log(
    `  operator admin calls at creation             ${creation} (${(creation / resources).toFixed(2)} per realm or client; direct: ${(direct.calls() / resources).toFixed(2)})`,
  );
  console.log(
    `  steady state (${drift + 5} s, ${resyncs} resyncs)   ${gets} reads = ${(gets / Math.max(1, resyncs)).toFixed(2)} per realm or client resync (goal <= 1), ${writes} writes (goal 0)`,
  );
  for (const line of steadyWrites.slice(0, 10)) console.log(`    wrote: ${line}`);
  console.log('  steady-state Keycloak calls by the kind that made them and by path:');
  for (const line of breakdown) console.log(`    ${line}`);
  console.log('  admin calls at creation by kind and path (largest first):');
  for (const line of creationBreakdown.slice(0, 15)) console.log(`    ${line}`);
  console.log(
    `  operator peak RSS                            ${rss.toFixed(0)} MB (goal <= 110 MB: ${(rss / 110).toFixed(2)}x of goal)`,
  );
  if (peak) console.log(`  at the largest sampled RSS (every 2 s)       ${describeSample(peak)}`);
  console.log(`  operator run as                              ${runAs()}`);
  console.log(
    `  idle operator peak RSS (nothing to do yet)   bundle ${idle.bundle.toFixed(0)} MB, tsc output ${idle.tsc.toFixed(0)} MB (${(idle.bundle / idle.tsc).toFixed(2)}x)`,
  );
  console.log(`  machine load (1/5/15 min) at start, at end   ${loadAtStart}; ${load()}`);
}

/** Runs the named cases in one private environment. */
export async function run(args: string[]): Promise<void> {
  const cases = args.filter((a) => !a.startsWith('--'));
  const wanted = cases.length ? cases : ['servers'];
  const unknown = wanted.filter((c) => c !== 'servers' && c !== 'realms');
  if (unknown.length) {
    console.error(`unknown case(s) ${unknown.join(', ')}: servers, realms`);
    process.exitCode = 2;
    return;
  }
  // Each case in its own private environment: the servers case must run without the process kubelet (its 100
  // servers would otherwise each start a Keycloak), and the realms case needs it.
  for (const name of wanted) {
    process.env.REALMFORGE_TESTENV_STATE = join(
      mkdtempSync(join(tmpdir(), 'realmforge-bench-')),
      'state.json',
    );
    try {
      await up({ log, keycloak: false, kubelet: name === 'realms' });
      const env = await testEnv();
      await installOperatorRbac(env);
      await (name === 'servers' ? servers(env) : realms(env, args.includes('--production')));
    } finally {
      await down({ log });
    }
  }
}
