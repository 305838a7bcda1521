// A realm's custom authentication flows. The top-level flows are a managed collection (owned by a ledger in the
// realm's attributes: a flow has nowhere to carry a marker); built-in flows are never touched. Their executions are
// compared as one list (flow-steps.ts) and a flow that differs is replaced, never edited in place
// (flow-replacement.ts). Synced in two steps around the realm update: before it, the declared flows are created or
// replaced (so a binding can name a new flow); after it, flows the operator made and the spec no longer declares
// are deleted (Keycloak refuses to delete a bound flow, and the update has just unbound it). Declared flows are
// checked first, before anything is written: sub-flow references, and every authenticator against what the server
// offers.
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import type { AdminClient } from '../admin-client.ts';
import { hasProvider, type ServerInfo } from '../server-info.ts';
import { type Collection, type Item, ItemConflictError, ledger, syncCollection } from './collection.ts';
import { buildNext, rename, settle, switchTo } from './flow-replacement.ts';
import { desiredSteps, executionsPath, type LiveExecution, liveSteps, sameSteps } from './flow-steps.ts';
import { ledgerClaim } from './late-ledgers.ts';

const enc = encodeURIComponent;
type Spec = IdentityRealm['spec'];
type FlowSpec = NonNullable<Spec['authenticationFlows']>[number];

/** The realm attribute listing the top-level flows the operator manages (aliases, comma-separated). */
export const flowsLedger = 'realmforge.dev/managed-flows';

/** The top-level flows of `realm`. */
export function topLevelFlows(realm: string): Collection {
  const base = `/${enc(realm)}/authentication/flows`;
  return {
    noun: 'authentication flow',
    field: 'spec.authenticationFlows',
    listPath: base,
    key: (f) => String(f.alias),
    compared: { alias: '', description: '', providerId: '' },
    write: { mode: 'each', createPath: base, itemPath: (live) => `${base}/${enc(String(live.id))}` },
  };
}

/** A declared top-level flow as Keycloak represents it. */
export const flowItem = (flow: FlowSpec): Item => ({
  alias: flow.alias,
  description: flow.description ?? '',
  providerId: flow.providerId ?? 'basic-flow',
  topLevel: true,
  builtIn: false,
});

const spiOf = {
  'basic-flow': 'authenticator',
  'client-flow': 'client-authenticator',
  'form-flow': 'form-action',
};

/** The realm attribute recording the top-level flows the spec declares (none: no attribute). */
export function flowsAttributes(spec: Spec): Record<string, string> {
  const aliases = (spec.authenticationFlows ?? []).filter((f) => f.topLevel !== false).map((f) => f.alias);
  return aliases.length ? { [flowsLedger]: aliases.sort().join(',') } : {};
}

/** What is wrong with the declared flows, one message per field (empty: nothing). */
export function flowProblems(spec: Spec, info?: ServerInfo): string[] {
  const flows = spec.authenticationFlows ?? [];
  const problems: string[] = [];
  const placed = new Map<string, string>();
  const on = info?.version ? `Keycloak ${info.version}` : 'this Keycloak';
  for (const flow of flows) {
    for (const [i, e] of (flow.executions ?? []).entries()) {
      const field = `spec.authenticationFlows[${flow.alias}].executions[${i}]`;
      if (e.subFlow) {
        const sub = flows.find((f) => f.alias === e.subFlow);
        if (sub?.topLevel !== false)
          problems.push(`${field}.subFlow: "${e.subFlow}" is not a flow declared with topLevel: false`);
        else if (placed.has(e.subFlow))
          problems.push(`${field}.subFlow: "${e.subFlow}" is already placed in ${placed.get(e.subFlow)}`);
        else placed.set(e.subFlow, flow.alias);
      }
      const spi = spiOf[flow.providerId ?? 'basic-flow'];
      if (e.authenticator && info && !hasProvider(info, spi, e.authenticator))
        problems.push(`${field}.authenticator: ${on} has no ${spi} provider "${e.authenticator}"`);
    }
  }
  for (const flow of flows)
    if (flow.topLevel === false && !placed.has(flow.alias))
      problems.push(
        `spec.authenticationFlows[${flow.alias}]: a sub-flow (topLevel false) no execution names in subFlow`,
      );
  // Sub-flows placed only inside each other (a cycle) are reached from no top-level flow.
  const reached = new Set<string>();
  const visit = (alias: string) => {
    for (const e of flows.find((f) => f.alias === alias)?.executions ?? [])
      if (e.subFlow && placed.get(e.subFlow) === alias && !reached.has(e.subFlow)) {
        reached.add(e.subFlow);
        visit(e.subFlow);
      }
  };
  for (const flow of flows.filter((f) => f.topLevel !== false)) visit(flow.alias);
  for (const [alias, parent] of placed)
    if (!reached.has(alias))
      problems.push(
        `spec.authenticationFlows[${parent}]: sub-flow "${alias}" is reached from no top-level flow`,
      );
  return problems;
}

/** Refuses a spec whose flows are wrong, before anything is written. */
export function checkFlows(spec: Spec, info?: ServerInfo): void {
  const problems = flowProblems(spec, info);
  if (problems.length) throw new RealmforgeError('validation', problems.join('; '));
}

/**
 * Creates and replaces the declared flows (flow-replacement.ts: a differing flow is built anew beside the old one
 * and switched to, never edited in place); returns the writes and the pruning step to run after the realm update.
 * `liveRealm` is the realm as read before this sync (its attributes hold the ledger, its fields the bindings);
 * `adopt` takes over a flow of a declared alias made by hand (never a built-in one).
 */
export async function syncFlows(
  admin: AdminClient,
  ns: string,
  realm: string,
  spec: Spec,
  liveRealm: Item,
  adopt = false,
): Promise<{ writes: string[]; prune: () => Promise<string[]> }> {
  const owned = ledger(liveRealm.attributes as Record<string, unknown>, flowsLedger);
  const all = spec.authenticationFlows ?? [];
  const declared = all.filter((f) => f.topLevel !== false);
  if (!declared.length && !owned.managed.size) return { writes: [], prune: async () => [] };
  const collection = topLevelFlows(realm);
  const c = { admin, ns, realm };
  let live = (await admin.call<Item[]>(ns, 'GET', collection.listPath)).body ?? [];
  for (const flow of declared) {
    const have = live.find((f) => f.alias === flow.alias);
    if (have && (have.builtIn || (!owned.managed.has(flow.alias) && !adopt)))
      throw new ItemConflictError(
        `spec.authenticationFlows declares flow "${flow.alias}", which already exists ${have.builtIn ? "as one of Keycloak's built-in flows (never edited)" : 'and was not created by realmforge'}: rename it in the spec`,
      );
  }
  for (const sub of all.filter((f) => f.topLevel === false))
    if (live.some((f) => f.alias === sub.alias))
      throw new ItemConflictError(
        `spec.authenticationFlows[${sub.alias}]: sub-flow "${sub.alias}" has the alias of another flow of the realm: rename it in the spec`,
      );
  const writes: string[] = [];
  // What a crash left of an earlier replacement is finished or removed first.
  for (const flow of declared) writes.push(...(await settle(c, flow.alias, live, liveRealm)));
  if (writes.length) live = (await admin.call<Item[]>(ns, 'GET', collection.listPath)).body ?? [];
  // Descriptions are changed in place (nothing runs them); nothing is created or deleted here.
  const existing = declared.filter((f) => live.some((l) => l.alias === f.alias));
  const upsert = await syncCollection(
    admin,
    ns,
    collection,
    existing.map(flowItem),
    ledgerOf(existing.map((f) => f.alias)),
    { live },
  );
  writes.push(...upsert.writes);
  for (const flow of declared) {
    const steps = desiredSteps(flow, all);
    const old = live.find((f) => f.alias === flow.alias);
    if (old) {
      const current = (await admin.call<LiveExecution[]>(ns, 'GET', executionsPath(realm, flow.alias))).body;
      if (sameSteps(steps, await liveSteps(admin, ns, realm, current ?? []))) continue;
    }
    // A new flow's alias is recorded before it is made, so a crash never leaves our flow looking like a person's.
    if (!owned.managed.has(flow.alias))
      await ledgerClaim(admin, ns, `/${enc(realm)}`, flowsLedger)([flow.alias]);
    const next = await buildNext(c, flowItem(flow), steps);
    writes.push(`build authentication flow ${flow.alias} (${steps.length} steps)`);
    if (old) writes.push(...(await switchTo(c, old, next)));
    writes.push(...(await rename(c, next)));
  }
  const stale = live.filter(
    (f) => owned.managed.has(String(f.alias)) && !declared.some((d) => d.alias === f.alias),
  );
  const prune = async () => {
    const deleted: string[] = [];
    for (const flow of stale) {
      await admin.call(ns, 'DELETE', collection.write.mode === 'each' ? collection.write.itemPath(flow) : '');
      deleted.push(`delete authentication flow ${flow.alias}`);
    }
    return deleted;
  };
  return { writes, prune };
}

const ledgerOf = (keys: string[]) => ({ managed: new Set(keys) });
