// A flow's executions are an ordered tree Keycloak builds one call at a time (an execution is added by provider and
// lands last, DISABLED; its requirement is set by a second call; a sub-flow is added through its parent), so they
// are not a set: they are compared as one flattened list (level, position, authenticator or sub-flow, requirement,
// config) and, when anything differs, the flow is replaced by a new version built in order (flow-replacement.ts).
// Building in order is what makes the result converge: Keycloak gives each new execution the next priority, so the
// order written is the order kept.
import type AuthenticationExecutionInfoRepresentation from '@keycloak/keycloak-admin-client/lib/defs/authenticationExecutionInfoRepresentation.js';
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { canonicalJson } from '../../runtime/desired-state.ts';
import type { AdminClient } from '../admin-client.ts';
import type { Item } from './collection.ts';

const enc = encodeURIComponent;
type FlowSpec = NonNullable<IdentityRealm['spec']['authenticationFlows']>[number];
type ExecutionSpec = NonNullable<FlowSpec['executions']>[number];

/** One step of a flow, flattened depth first: what is compared, and where it is added. */
export type Step = {
  level: number;
  /** The flow the step is added to (the top-level flow or a sub-flow). */
  parent: string;
  authenticator?: string;
  subFlow?: { alias: string; description: string; providerId: string };
  requirement: string;
  config?: { alias: string; config: Record<string, string> };
};

/** The declared steps of top-level flow `flow`, depth first (sub-flows found by alias in `all`). */
export function desiredSteps(flow: FlowSpec, all: readonly FlowSpec[], level = 0): Step[] {
  return (flow.executions ?? []).flatMap((e: ExecutionSpec) => {
    const sub = e.subFlow ? all.find((f) => f.alias === e.subFlow) : undefined;
    const step: Step = {
      level,
      parent: flow.alias,
      requirement: e.requirement,
      ...(e.authenticator ? { authenticator: e.authenticator } : {}),
      ...(sub
        ? {
            subFlow: {
              alias: sub.alias,
              description: sub.description ?? '',
              providerId: sub.providerId ?? 'basic-flow',
            },
          }
        : {}),
      ...(e.authenticatorConfig
        ? { config: { alias: e.authenticatorConfig.alias, config: e.authenticatorConfig.config ?? {} } }
        : {}),
    };
    return [step, ...(sub ? desiredSteps(sub, all, level + 1) : [])];
  });
}

/** A flow's executions as Keycloak lists them (flattened, depth first). */
export type LiveExecution = AuthenticationExecutionInfoRepresentation & { priority?: number };

/** The executions of flow `alias`. */
export const executionsPath = (realm: string, alias: string) =>
  `/${enc(realm)}/authentication/flows/${enc(alias)}/executions`;

/** The live steps of a flow: its executions, and the config of each configured one (one read each). */
export async function liveSteps(
  admin: AdminClient,
  ns: string,
  realm: string,
  executions: readonly LiveExecution[],
): Promise<Omit<Step, 'parent'>[]> {
  const steps: Omit<Step, 'parent'>[] = [];
  for (const e of executions) {
    let config: Step['config'];
    if (e.authenticationConfig) {
      const path = `/${enc(realm)}/authentication/config/${enc(e.authenticationConfig)}`;
      const body = (await admin.call<Item>(ns, 'GET', path)).body ?? {};
      config = { alias: String(body.alias ?? ''), config: (body.config ?? {}) as Record<string, string> };
    }
    steps.push({
      level: e.level ?? 0,
      requirement: String(e.requirement ?? ''),
      ...(e.authenticationFlow
        ? {
            subFlow: {
              alias: String(e.displayName ?? ''),
              description: e.description ?? '',
              // Keycloak names no provider for a basic sub-flow and the form's provider for a form sub-flow.
              providerId: e.providerId && e.providerId !== 'basic-flow' ? 'form-flow' : 'basic-flow',
            },
          }
        : { authenticator: String(e.providerId ?? '') }),
      ...(config ? { config } : {}),
    });
  }
  return steps;
}

/** Whether the live steps are the desired ones. */
export const sameSteps = (desired: readonly Step[], live: readonly Omit<Step, 'parent'>[]) =>
  canonicalJson(desired.map(({ parent: _, ...s }) => s)) === canonicalJson(live);
