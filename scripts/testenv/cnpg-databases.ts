// Stands in for CloudNativePG's database controller: each `Database` object the operator writes is created in the
// environment's PostgreSQL (owned by its role) and marked applied, as CNPG would do in its cluster.
import { kubeRequest } from './kube-request.ts';
import type { Postgres } from './postgres.ts';
import { pgTool } from './postgres.ts';

type Database = {
  metadata: { name: string; namespace: string; uid: string; generation: number };
  spec: { name: string; owner: string; ensure?: string };
  status?: { applied?: boolean; observedGeneration?: number };
};

type PgAccess = Pick<Postgres, 'bin' | 'socketDir' | 'port'>;

const identifier = /^[A-Za-z_][A-Za-z0-9_$-]{0,62}$/;

async function createDatabase(pg: PgAccess, db: Database): Promise<string | undefined> {
  const { name, owner } = db.spec;
  if (!identifier.test(name) || !identifier.test(owner))
    return `unsupported database or owner name ${name}/${owner}`;
  const q = (sql: string) => pgTool(pg, 'psql', ['-tAq', '-v', 'ON_ERROR_STOP=1', '-c', sql]);
  if ((await q(`SELECT 1 FROM pg_roles WHERE rolname = '${owner}'`)).trim() !== '1')
    return `role "${owner}" does not exist`;
  if ((await q(`SELECT 1 FROM pg_database WHERE datname = '${name}'`)).trim() !== '1') {
    await q(`CREATE DATABASE "${name}" OWNER "${owner}"`);
  }
  return undefined;
}

/** Creates the database of every Database object not yet applied at its generation and writes its status. */
export async function reconcileDatabases(
  kubeconfig: string,
  pg: PgAccess,
  log: (line: string) => void,
): Promise<void> {
  const list = await kubeRequest(kubeconfig, 'GET', '/apis/postgresql.cnpg.io/v1/databases');
  if (list.status !== 200) return; // CNPG's CRDs are not installed
  for (const db of list.body.items as Database[]) {
    if (db.spec.ensure === 'absent') continue;
    if (db.status?.applied && db.status.observedGeneration === db.metadata.generation) continue;
    const problem = await createDatabase(pg, db).catch((e: Error) => e.message);
    const status = { applied: !problem, observedGeneration: db.metadata.generation, message: problem ?? '' };
    const path = `/apis/postgresql.cnpg.io/v1/namespaces/${db.metadata.namespace}/databases/${db.metadata.name}/status`;
    const res = await kubeRequest(kubeconfig, 'PATCH', path, { status }, 'application/merge-patch+json');
    const key = `${db.metadata.namespace}/${db.metadata.name}`;
    if (res.status >= 300)
      log(`kubelet: Database ${key}: status not written (${res.status} ${res.body?.message ?? ''})`);
    else
      log(
        `kubelet: Database ${key}: ${problem ? `not applied: ${problem}` : `database "${db.spec.name}" ready`}`,
      );
  }
}
