// What `realmforge import` prints: the resources as one YAML stream (Secrets only when asked for), and the report
// for stderr: what was imported, the Secrets to create, and what no CRD field can say, by JSON path and count.
import { toYamlDocuments } from '../../../core/yaml.ts';
import type { ImportResult } from './import-realm.ts';

/** The YAML of the resources; with `secrets`, the Secret manifests first (a value the export masked is empty). */
export function importYaml(result: ImportResult, secrets: boolean): string {
  const manifests = secrets ? secretManifests(result) : [];
  return toYamlDocuments([...manifests, result.realm, ...result.clients]);
}

function secretManifests(result: ImportResult) {
  const byName = new Map<string, Record<string, string>>();
  for (const s of result.secrets) {
    const id = `${s.namespace}/${s.name}`;
    byName.set(id, { ...byName.get(id), [s.key]: s.value ?? '' });
  }
  return [...byName].map(([id, stringData]) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: id.split('/')[1], namespace: id.split('/')[0] },
    type: 'Opaque',
    stringData,
  }));
}

/** The report for stderr (no secret values). */
export function importReport(result: ImportResult, secrets: boolean): string {
  const lines = [
    `import: realm ${result.realm.spec.realmName ?? result.realm.metadata.name}: 1 IdentityRealm and ${result.clients.length} IdentityClient(s)`,
  ];
  const refs = [...new Map(result.secrets.map((s) => [`${s.namespace}/${s.name}/${s.key}`, s])).values()];
  if (refs.length) {
    const missing = refs.filter((s) => s.value === undefined);
    lines.push(
      secrets
        ? `${refs.length} Secret key(s) printed${missing.length ? `; ${missing.length} empty (the export masks them): fill in ${missing.map((s) => `${s.namespace}/${s.name} key ${s.key}`).join(', ')}` : ''}`
        : `create these Secrets before applying (or run again with --secrets): ${refs.map((s) => `${s.namespace}/${s.name} key ${s.key}`).join(', ')}`,
    );
  }
  if (result.unexpressed.length) {
    const total = result.unexpressed.reduce((n, u) => n + u.count, 0);
    lines.push(`${total} item(s) the CRDs cannot express, not imported:`);
    for (const u of result.unexpressed)
      lines.push(`  ${u.path}${u.count > 1 ? ` (${u.count})` : ''}: ${u.why}`);
  }
  return `${lines.join('\n')}\n`;
}
