import type { AdminHealthOutput } from '../../../../generated/types/cli/output/admin-health.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import { defineCommand } from '../../command.ts';

type RestNode = {
  id?: string;
  name?: string;
  address?: { address?: string; port?: number };
  buildVersion?: string;
};
type RestCluster = { localNode?: RestNode; nodes?: RestNode[]; running?: boolean };
type RestProperties = { version?: string; buildNumber?: string; displayName?: string };

const node = (n: RestNode, local: RestNode | undefined) => ({
  id: n.id ?? 'unknown',
  ...(n.name && { name: n.name }),
  ...(n.address?.address && { address: `${n.address.address}${n.address.port ? `:${n.address.port}` : ''}` }),
  ...(n.buildVersion && { buildVersion: n.buildVersion }),
  local: n.id !== undefined && n.id === local?.id,
});

/**
 * `bbdc admin health`: bb's health check, from what Bitbucket's 9.4 API offers: the server answers and names its
 * version (application-properties), and a system administrator also sees the cluster's nodes and whether it runs
 * (admin/cluster). The document has no other health or status operation.
 */
export const command = defineCommand<Record<string, never>, AdminHealthOutput>({
  name: 'admin health',
  summary: "Check that the server answers: its version and, for a system administrator, its cluster's nodes",
  description:
    'Reads GET /rest/api/latest/application-properties and, when your account has SYS_ADMIN, GET /rest/api/latest/admin/cluster. Exit code 1 when the cluster says it is not running.',
  args: [],
  flags: {},
  outputSchema: 'admin-health',
  effect: 'safe',
  examples: ['bbdc admin health', 'bbdc admin health --json'],
  parse: () => ({}),
  async run(_o, deps) {
    const host = await deps.host();
    const client = await deps.client(host);
    const p = await client.get<RestProperties | undefined>('/rest/api/latest/application-properties');
    const out: AdminHealthOutput = { server: host.url, healthy: true, version: p?.version ?? 'unknown' };
    if (p?.buildNumber) out.buildNumber = String(p.buildNumber);
    if (p?.displayName) out.displayName = p.displayName;
    try {
      const c = await client.get<RestCluster | undefined>('/rest/api/latest/admin/cluster');
      const nodes = Array.isArray(c?.nodes) ? c.nodes : c?.localNode ? [c.localNode] : [];
      out.cluster = { running: c?.running !== false, nodes: nodes.map((n) => node(n, c?.localNode)) };
      out.healthy = out.cluster.running;
    } catch (e) {
      if (!(e instanceof RealmforgeError) || e.kind !== 'auth') throw e;
      out.clusterUnavailable = 'reading the cluster needs SYS_ADMIN';
    }
    return out;
  },
  exitCode: (d) => (d.healthy ? 0 : 1),
  human(d, ui) {
    ui.line(
      `${d.server}: ${d.displayName ?? 'Bitbucket'} ${d.version}${d.buildNumber ? ` (build ${d.buildNumber})` : ''} answers`,
    );
    if (d.cluster) {
      ui.line(`Cluster: ${d.cluster.running ? 'running' : 'NOT running'}, ${d.cluster.nodes.length} node(s)`);
      ui.table(
        ['node', 'name', 'address', 'version', 'local'],
        d.cluster.nodes.map((n) => [
          n.id,
          n.name ?? '',
          n.address ?? '',
          n.buildVersion ?? '',
          n.local ? 'yes' : '',
        ]),
      );
    } else if (d.clusterUnavailable) ui.line(`Cluster: not read (${d.clusterUnavailable})`);
  },
});
