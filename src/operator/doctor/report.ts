// The doctor's report: every check over one snapshot, in the order a person would look (install, operator, RBAC,
// namespaces, metrics, resources, databases, Keycloak, Ingress), its summary, the text rendering and the exit code.
import type { DoctorReport } from '../../../generated/types/operator/doctor-report.ts';
import type { DoctorCheck } from './check.ts';
import { checkCrds } from './checks-install.ts';
import { checkMetrics } from './checks-metrics.ts';
import { checkOperator } from './checks-operator.ts';
import { checkClusterAccess, checkNamespaceAccess } from './checks-rbac.ts';
import { checkResources } from './checks-resources.ts';
import { checkServers } from './checks-servers.ts';
import type { Snapshot } from './snapshot.ts';

export type { DoctorReport };

/** Runs every check (pure: the same snapshot gives the same report). */
export function diagnose(s: Snapshot): DoctorReport {
  const checks: DoctorCheck[] = [
    ...checkCrds(s),
    ...checkOperator(s),
    ...checkClusterAccess(s),
    ...checkNamespaceAccess(s),
    ...checkMetrics(s),
    ...checkResources(s),
    ...checkServers(s),
  ];
  const count = (status: DoctorCheck['status']) => checks.filter((c) => c.status === status).length;
  const holding = [...s.servers.map((f) => f.server), ...s.realms, ...s.clients].map(
    (o) => o.metadata.namespace ?? 'default',
  );
  return {
    version: 'v1',
    cluster: s.cluster,
    ...(s.namespace ? { namespace: s.namespace } : { namespaces: [...new Set(holding)].sort() }),
    summary: { ok: count('OK'), warn: count('WARN'), fail: count('FAIL') },
    checks,
  };
}

/** The report for a terminal: one line per check, cause and fix indented under each WARN and FAIL. */
export function renderReport(r: DoctorReport): string {
  const scope = r.namespace
    ? `namespace ${r.namespace}`
    : `every namespace: ${r.namespaces?.length ? r.namespaces.join(', ') : 'none holds an IdentityServer, IdentityRealm or IdentityClient'}`;
  const lines = [`realmforge doctor: ${r.cluster} (${scope})`];
  let area = '';
  for (const c of r.checks) {
    if (c.area !== area) {
      area = c.area;
      lines.push('', `${area}:`);
    }
    lines.push(`  ${c.status.padEnd(4)} ${c.subject}: ${c.message}`);
    if (c.cause) lines.push(`       cause: ${c.cause}`);
    if (c.fix) lines.push(`       fix:   ${c.fix}`);
  }
  const { ok, warn, fail } = r.summary;
  lines.push('', `${ok} OK, ${warn} WARN, ${fail} FAIL`);
  return `${lines.join('\n')}\n`;
}

/** 1 when any check failed, else 0 (WARN does not fail). */
export function reportExitCode(r: DoctorReport): number {
  return r.summary.fail > 0 ? 1 : 0;
}
