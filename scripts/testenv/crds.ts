// Installs CustomResourceDefinitions: CloudNativePG's (from ../shared/reference or CNPG's Go module) and the
// operator's own (dist-manifests/crds), with server-side apply, waiting until each is Established.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubernetesObject } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import { describeError } from '../../src/core/errors.ts';
import { ComponentError } from './errors.ts';
import { requireGo } from './go-build.ts';
import { applyAt, kubeRequest } from './kube-request.ts';
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
  const base = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
  for (const crd of crds) {
    const res = await applyAt(kubeconfig, `${base}/${crd.metadata?.name}`, crd, fieldManager);
    if (res.status >= 300) {
      throw new ComponentError(`the API server rejected CRD ${crd.metadata?.name} (${res.status})`, [
        res.body?.message ?? String(res.body),
      ]);
    }
  }
  const deadline = Date.now() + timeoutMs;
  for (const crd of crds) {
    for (;;) {
      const current = (await kubeRequest(kubeconfig, 'GET', `${base}/${crd.metadata?.name}`)).body as {
        status?: { conditions?: { type: string; status: string }[] };
      };
      if (current.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) break;
      if (Date.now() > deadline)
        throw new ComponentError(`CRD ${crd.metadata?.name} was not Established in time`);
      await sleep(200);
    }
  }
}

/**
 * Installs CNPG's CRDs (a failure stops `up`) and, when present, the operator's (a failure is logged: the e2e
 * suite that installs them reports it, and the rest of the environment stays usable). Returns the names installed.
 */
export async function installAllCrds(kubeconfig: string, log: (line: string) => void): Promise<string[]> {
  const dir = await cnpgCrdDir();
  const cnpgCrds = readCrds(cnpgFiles.map((f) => join(dir, f)));
  await installCrds(kubeconfig, cnpgCrds);
  const own = readCrds(realmforgeCrdFiles());
  try {
    await installCrds(kubeconfig, own);
  } catch (e) {
    log(`warning: the operator's CRDs (dist-manifests/crds) did not install: ${describeError(e)}`);
    return cnpgCrds.map((c) => c.metadata?.name ?? '');
  }
  return [...cnpgCrds, ...own].map((c) => c.metadata?.name ?? '');
}
