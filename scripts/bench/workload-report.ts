// What the realms, scale and tenants benches print: each figure beside its goal, met or not, side by side with
// the direct script (and, for Keycloak's CPU per steady-state pass, with master's admin and the floor).
import { keycloakVersion } from '../testenv/identity-fixtures.ts';
import { heapFromLimit } from '../testenv/kubelet-env.ts';
import { type CallCounts, callTotal } from './call-breakdown.ts';
import type { ScriptRun } from './direct-script.ts';
import * as c from './operator-common.ts';
import type { scriptPasses } from './read-passes.ts';
import { type PassCost, passCost } from './read-sections.ts';
import type { steadyState } from './steady-state.ts';
import type { Workload } from './workload-flags.ts';

/** "(goal <= 1.2x: met)" */
export const goal = (value: number, limit: number, unit = '') =>
  `(goal <= ${limit}${unit}: ${Number.isNaN(value) ? 'not measured' : value <= limit ? 'met' : 'not met'})`;

type Steady = Awaited<ReturnType<typeof steadyState>>;

/** One measured size: the operator's pass and the script's (master admin and floor) on its own Keycloak. */
export type SizePasses = {
  size: number;
  operator?: PassCost;
  /** The operator's pass with every realm woken at once. */
  burst?: PassCost;
  /** The operator's pass with realms woken one by one at the pace `burst` came, as the paced floor reads. */
  spread?: PassCost;
  /** The floor reading the operator's realms on its Keycloak in turn with `burst`: as densely as it goes, and at
   * the pace the operator's passes came. */
  floorDense?: PassCost;
  floorPaced?: PassCost;
  /** In the same turns, at the operator's pace: its one read sent by the bench as its realm identity. */
  replay?: PassCost;
  /** A partial export of each realm by the same identity at that pace, or why it was not measured. */
  partialExport?: PassCost | string;
  script?: Awaited<ReturnType<typeof scriptPasses>>;
  steady?: Steady;
};

type Figures = {
  /** The direct script's run, and the CPU its Keycloak spent meanwhile (its read passes not counted). */
  direct: ScriptRun & { keycloakCpuS: number };
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
  steady: Steady;
  passes: SizePasses[];
  creationCalls: CallCounts;
  creationBreakdown: string[];
  rss: number;
  peak: string;
  idle: { bundle: number; tsc: number };
  loadAtStart: string;
};

export function report(w: Workload, f: Figures): void {
  const out = (label: string, value: string) => console.log(`  ${label.padEnd(44)} ${value}`);
  console.log(
    `${w.name}${w.production ? ' (each realm the production example)' : ''}: ${w.realms} realms x ${w.clientsPerRealm} clients in ${w.namespaces} namespaces on Keycloak ${keycloakVersion} (memory limit ${w.keycloakMemory}: ${heapFromLimit({ name: 'keycloak', resources: { limits: { memory: w.keycloakMemory } } }).JAVA_OPTS_KC_HEAP}; the direct script on a second one, the same); limits 100/10 TPS; drift interval ${w.driftS} s`,
  );
  out(
    `direct script (${w.importClients ? 'one realm import each' : 'minimal calls'}, 4 at a time)`,
    `${c.seconds(f.direct.ms)}, ${f.direct.calls} admin calls (tokens not counted), as master's bootstrap admin`,
  );
  out(
    'operator, first apply to all Ready',
    `all ${f.resources} Ready in ${c.seconds(f.operator.ms)} (${(f.operator.ms / f.direct.ms).toFixed(2)}x the direct script ${goal(f.operator.ms / f.direct.ms, w.convergenceGoal, 'x')})${w.phased ? `; realms alone ${c.seconds(f.operator.realmsMs)}` : ''}`,
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
  if (w.realmGoals) {
    // Token requests left out, as for the direct script and the per-resource figure above; shown apart.
    const realmCalls = (token: boolean) =>
      callTotal(
        f.creationCalls,
        (_, path, kind) => kind === 'IdentityRealm' && path.endsWith('/token') === token,
      ) / w.realms;
    out(
      'admin calls per realm at creation',
      `${realmCalls(false).toFixed(2)} by its realm's reconciles ${goal(realmCalls(false), w.realmGoals.callsAtCreation)} (and ${realmCalls(true).toFixed(2)} token requests); ${(f.operator.calls / w.realms).toFixed(2)} with its ${w.clientsPerRealm} client(s)`,
    );
  }
  out(
    'CPU at creation (Keycloak direct | operator)',
    `Keycloak ${f.direct.keycloakCpuS.toFixed(0)} s | ${f.operator.cpu.keycloak.toFixed(0)} s (${(f.operator.cpu.keycloak / f.direct.keycloakCpuS).toFixed(2)}x); the operator itself ${f.operator.cpu.operator.toFixed(0)} s`,
  );
  out('reconcile times at creation', f.operator.quantiles);
  out("operator's access token (goal: flat)", f.tokens.join(', '));
  for (const line of f.steady.lines) out('steady state', line);
  if (w.realmGoals)
    for (const [i, v] of f.steady.intervals.entries()) {
      const [reads, writes] = [v.reads / w.realms, v.writes / w.realms];
      out(
        `steady state per realm, interval ${i + 2} after creation`,
        `${reads.toFixed(2)} Keycloak reads ${goal(reads, w.realmGoals.readsPerInterval)}, ${writes.toFixed(2)} writes ${goal(writes, 0)} (a realm with its ${w.clientsPerRealm} client(s))`,
      );
    }
  for (const line of passLines(f.passes)) out('Keycloak CPU per steady-state pass', line);
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
    `${f.rss.toFixed(0)} MB ${goal(f.rss, w.rssGoalMb, ' MB')} (${(f.rss / w.rssGoalMb).toFixed(2)}x of goal)`,
  );
  if (f.peak) out('at the largest sampled RSS (every 2 s)', f.peak);
  out('operator run as', c.runAs());
  out(
    'idle operator peak RSS (nothing to do yet)',
    `bundle ${f.idle.bundle.toFixed(0)} MB, tsc output ${f.idle.tsc.toFixed(0)} MB`,
  );
  out('machine load (1/5/15 min) at start, at end', `${f.loadAtStart}; ${c.load()}`);
}

const floorGoal = 1.2;

/** At each size: Keycloak CPU per realm pass and per read for the operator, master's admin and the floor, and the
 * operator's ratio to the floor against its goal: the floor in turn with it on its own Keycloak. */
export function passLines(passes: readonly SizePasses[]): string[] {
  const cell = (x: PassCost | undefined) => {
    if (!x) return { text: 'not measured', perPass: Number.NaN };
    const { perPass, perRead } = passCost(x);
    const readsPer = x.reads / Math.max(1, x.passes);
    if (Number.isNaN(perPass))
      return { text: `within Keycloak's idle noise (${readsPer.toFixed(1)} reads per realm)`, perPass };
    return {
      text: `${perPass.toFixed(4)} s per realm (${perRead.toFixed(4)} s per read, ${readsPer.toFixed(1)} reads)`,
      perPass,
    };
  };
  const over = (x: PassCost | undefined) =>
    `over ${x?.passes ?? 0} realm passes in ${(x?.seconds ?? 0).toFixed(1)} s`;
  return passes.flatMap(
    ({ size, operator, burst, spread, floorDense, floorPaced, replay, partialExport, script, steady }) => {
      const [op, atOnce, oneByOne, dense, paced, admin, floor] = [
        cell(operator),
        cell(burst),
        cell(spread),
        cell(floorDense),
        cell(floorPaced),
        cell(script?.admin),
        cell(script?.floor),
      ];
      const ratio = oneByOne.perPass / paced.perPass;
      return [
        `at ${size} realms, operator, over an interval: ${op.text} ${over(operator)}`,
        `at ${size} realms, operator, every realm woken at once: ${atOnce.text} ${over(burst)}`,
        `at ${size} realms, operator, realms woken one by one at that pace: ${oneByOne.text} ${over(spread)}`,
        `at ${size} realms, floor on the operator's Keycloak, in turn with it, at its pace: ${paced.text} ${over(floorPaced)}`,
        `at ${size} realms, the same floor as densely as it goes: ${dense.text} ${over(floorDense)}`,
        `at ${size} realms, the operator's read sent by the bench as its realm identity, at its pace: ${cell(replay).text}`,
        `at ${size} realms, operator / floor ${ratio.toFixed(2)}x at one pace ${goal(ratio, floorGoal, 'x')}; woken at once ${(atOnce.perPass / paced.perPass).toFixed(2)}x, and ${(atOnce.perPass / dense.perPass).toFixed(2)}x against the dense floor; Keycloak idle subtracted ${(operator?.idlePerS ?? 0).toFixed(4)} s/s`,
        `at ${size} realms, the script's Keycloak: master admin ${admin.text}`,
        `at ${size} realms, the script's Keycloak: floor        ${floor.text}`,
        `at ${size} realms, change signal: a partial export as the same identity at the same pace, instead of the newest admin event above: ${typeof partialExport === 'string' ? `not measured: ${partialExport}` : cell(partialExport).text}`,
        `at ${size} realms, the script's Keycloak: master admin / floor ${(admin.perPass / floor.perPass).toFixed(2)}x; idle subtracted ${(script?.idlePerS ?? 0).toFixed(4)} s/s`,
        ...(steady && size !== passes.at(-1)?.size ? steady.lines.map((l) => `at ${size} realms, ${l}`) : []),
      ];
    },
  );
}
