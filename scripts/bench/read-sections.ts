// What a steady-state read pass reads in a realm and what it cost Keycloak per realm and per read (pure, apart from
// the environment code in read-passes.ts, so it is unit-tested without it).

/** One side's measured window: Keycloak CPU seconds over `seconds`, `passes` realm passes, `reads` admin reads. */
export type PassCost = { cpuS: number; seconds: number; passes: number; reads: number; idlePerS: number };

/** Two windows of one side as one (the same idle rate). */
export const sumCosts = (a: PassCost, b: PassCost): PassCost => ({
  cpuS: a.cpuS + b.cpuS,
  seconds: a.seconds + b.seconds,
  passes: a.passes + b.passes,
  reads: a.reads + b.reads,
  idlePerS: a.idlePerS,
});

/** Keycloak CPU seconds per realm pass and per read, Keycloak's idle rate over the window subtracted; NaN when
 * the window cost no more than idle would have (the pass is within Keycloak's idle noise). */
export function passCost(c: PassCost): { perPass: number; perRead: number } {
  const busy = c.cpuS - c.idlePerS * c.seconds;
  if (busy <= 0) return { perPass: Number.NaN, perRead: Number.NaN };
  return { perPass: busy / Math.max(1, c.passes), perRead: busy / Math.max(1, c.reads) };
}

type Spec = {
  roles?: { name: string; composites?: unknown }[];
  authenticationFlows?: { alias: string }[];
  localization?: { messages?: Record<string, unknown> };
};

/** The sections a steady-state pass reads in `realm`: the realm, and for the production example (`spec`) each
 * section it declares (roles with each composite's members, groups, client scopes, flows with each declared
 * flow's executions, required actions, each locale's texts, the user profile); then each client by clientId. */
export function sectionPaths(realm: string, spec: Spec | undefined, clientIds: string[]): string[] {
  const r = `/${encodeURIComponent(realm)}`;
  const paths = [r];
  if (spec)
    paths.push(
      `${r}/roles?briefRepresentation=false`,
      ...(spec.roles ?? []).filter((x) => x.composites).map((x) => `${r}/roles/${x.name}/composites`),
      `${r}/groups?briefRepresentation=false`,
      `${r}/client-scopes`,
      `${r}/authentication/flows`,
      ...(spec.authenticationFlows ?? []).map((f) => `${r}/authentication/flows/${f.alias}/executions`),
      `${r}/authentication/required-actions`,
      ...Object.keys(spec.localization?.messages ?? {}).map((l) => `${r}/localization/${l}`),
      `${r}/users/profile`,
    );
  return [...paths, ...clientIds.map((id) => `${r}/clients?clientId=${id}`)];
}

/** The first `cap` of `realms`: what one read costs is what the passes compare, reading (and granting) every realm
 * as master admin would cost Keycloak far more than the run, and the first ones get the floor's identity while the
 * server is small, where granting it is cheap (docs/benchmarks.md). */
export const sampleOf = <T>(realms: T[], cap = 100): T[] => realms.slice(0, cap);
