// `npm run bench:operator -- servers|realms|scale`: the real operator (under its ServiceAccount) against a private
// test environment, measured side by side with its goals in one run.
//   servers: 100 IdentityServers applied at once, no Keycloak processes (no process kubelet): time until every
//            one is applied and Provisioning, API writes per server, operator peak RSS.
//   realms:  50 realms with 4 clients each in 10 namespaces on one Keycloak, each realm applied with its clients
//            (realm-workload.ts): time to all Ready next to a plain script doing the minimal calls, admin calls at
//            creation and per steady-state drift interval (by kind and path), peak RSS against 110 MB.
//            With --production every realm is examples/identityrealm-production.yaml (all its sections, roles and
//            groups; SMTP left out: it needs a Secret per namespace) and the script posts the same realm.
//   scale:   the scale goal: by default 1,000 realms in 50 namespaces, then 10 clients per realm, then
//            three drift intervals with nothing changed; the operator's token size as realms accumulate, realm
//            create times per checkpoint from both, API-server requests per interval, peak RSS against 250 MB.
//            --realms, --clients-per-realm, --namespaces, --drift=<s>, --intervals run it at other sizes.
//   --memory-variants (realms, scale): at the end, the operator restarted under each memory setting
//            (memory-variants.ts), side by side.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { down, up } from '../testenv/env.ts';
import { eventually, type TestEnv, testEnv } from '../testenv/harness.ts';
import { databaseCluster, identityServer } from '../testenv/identity-fixtures.ts';
import { grantSecretAccess, installOperatorRbac, startOperator } from '../testenv/operator-process.ts';
import {
  asTheImageRuns,
  kubeWrites,
  listPhases,
  load,
  log,
  peakRssMb,
  runAs,
  seconds,
} from './operator-common.ts';
import { realmWorkload } from './realm-workload.ts';
import { type CaseName, type Workload, workloadFrom } from './workload-flags.ts';

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

const caseNames = ['servers', 'realms', 'scale', 'tenants'];

/** Runs the named cases, each in its own private environment. */
export async function run(args: string[]): Promise<void> {
  const cases = args.filter((a) => !a.startsWith('--'));
  const wanted = cases.length ? cases : ['servers'];
  const unknown = wanted.filter((c) => !caseNames.includes(c));
  if (unknown.length) {
    console.error(`unknown case(s) ${unknown.join(', ')}: ${caseNames.join(', ')}`);
    process.exitCode = 2;
    return;
  }
  let workloads: Workload[];
  try {
    workloads = wanted.filter((c) => c !== 'servers').map((c) => workloadFrom(c as CaseName, args));
  } catch (e) {
    console.error((e as Error).message);
    process.exitCode = 2;
    return;
  }
  // The servers case must run without the process kubelet (its 100 servers would otherwise each start a
  // Keycloak); the others need it.
  for (const name of wanted) {
    process.env.REALMFORGE_TESTENV_STATE = join(
      mkdtempSync(join(tmpdir(), 'realmforge-bench-')),
      'state.json',
    );
    try {
      await up({ log, keycloak: false, kubelet: name !== 'servers' });
      const env = await testEnv();
      await installOperatorRbac(env);
      const workload = workloads.find((w) => w.name === name);
      await (workload ? realmWorkload(env, workload) : servers(env));
    } finally {
      await down({ log });
    }
  }
}
