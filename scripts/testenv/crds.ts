// Installs CustomResourceDefinitions: CloudNativePG's (from ../shared/reference or CNPG's Go module) and the
// operator's own (dist-manifests/crds), with server-side apply, waiting until each is Established.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  KubeConfig,
  type KubernetesObject,
  KubernetesObjectApi,
  PatchStrategy,
} from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import { ComponentError } from './errors.ts';
import { requireGo } from './go-build.ts';
import { repoRoot, sharedReferenceDir } from './paths.ts';
import { run } from './proc.ts';
import { cnpg } from './versions.ts';

/** The field manager of every object the harness applies. */
export const fieldManager = 'realmforge-testenv';

/** The CNPG CRD files the operator needs (Cluster, Database, DatabaseRole). */
const cnpgFiles = [
  'postgresql.cnpg.io_clusters.yaml',
  'postgresql.cnpg.io_databases.yaml',
  'postgresql.cnpg.io_databaseroles.yaml',
];

/** The directory holding CNPG's CRDs: ../shared/reference, else the CNPG Go module from the module proxy. */
export async function cnpgCrdDir(): Promise<string> {
  const shared = join(sharedReferenceDir, cnpg.referenceDir);
  if (cnpgFiles.every((f) => existsSync(join(shared, f)))) return shared;
  await requireGo(
    `the CloudNativePG ${cnpg.version} CRDs (../shared/reference/${cnpg.referenceDir} is absent)`,
  );
  const mod = `github.com/cloudnative-pg/cloudnative-pg@${cnpg.version}`;
  const info = JSON.parse(
    await run('go', ['mod', 'download', '-json', mod], { env: { ...process.env, GOFLAGS: '-mod=mod' } }),
  );
  return join(info.Dir, 'config', 'crd', 'bases');
}

/** Every CRD document in the given files. */
export function readCrds(files: readonly string[]): KubernetesObject[] {
  return files.flatMap((f) =>
    parseAllDocuments(readFileSync(f, 'utf8'))
      .map((d) => d.toJS() as KubernetesObject)
      .filter((o) => o?.kind === 'CustomResourceDefinition'),
  );
}

/** The operator's CRD files in dist-manifests/crds (empty until the foundation issue lands them). */
export function realmforgeCrdFiles(): string[] {
  const dir = join(repoRoot, 'dist-manifests', 'crds');
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => /\.ya?ml$/.test(f))
        .sort()
        .map((f) => join(dir, f))
    : [];
}

/** Server-side applies the CRDs and waits until the API server reports each Established. */
export async function installCrds(
  kubeconfig: string,
  crds: readonly KubernetesObject[],
  timeoutMs = 60_000,
): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  const api = KubernetesObjectApi.makeApiClient(kc);
  for (const crd of crds) {
    await api.patch(crd, undefined, undefined, fieldManager, true, PatchStrategy.ServerSideApply);
  }
  const deadline = Date.now() + timeoutMs;
  for (const crd of crds) {
    for (;;) {
      const current = (await api.read(crd as never)) as KubernetesObject & {
        status?: { conditions?: { type: string; status: string }[] };
      };
      if (current.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) break;
      if (Date.now() > deadline)
        throw new ComponentError(`CRD ${crd.metadata?.name} was not Established in time`);
      await sleep(200);
    }
  }
}

/** Installs CNPG's CRDs and, when present, the operator's. Returns the names installed. */
export async function installAllCrds(kubeconfig: string): Promise<string[]> {
  const dir = await cnpgCrdDir();
  const crds = [...readCrds(cnpgFiles.map((f) => join(dir, f))), ...readCrds(realmforgeCrdFiles())];
  await installCrds(kubeconfig, crds);
  return crds.map((c) => c.metadata?.name ?? '');
}
