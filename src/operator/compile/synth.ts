import type { IdentityServer } from '../../../generated/types/crds/identityserver.ts';
import { ValidationError } from '../../core/errors.ts';
import { toYamlDocuments } from '../../core/yaml.ts';
import { compileIdentityServer } from './identity-server.ts';
import type { KubeObject } from './kube-object.ts';
import { resolveServer } from './resolved-server.ts';
import type { IdentityResource, ResourceValidator } from './resource-validator.ts';

/** One parsed document and where it came from (file, and document index when a file holds several). */
export type SourceDocument = { source: string; data: unknown };

/** Shown instead of every Secret value: synth never prints one. */
export const redacted = '(redacted)';

/** The result of a synth: the YAML stream and a count of what was read. */
export type SynthResult = { yaml: string; counts: Record<IdentityResource['kind'], number>; objects: number };

function redactSecrets(objects: KubeObject[]): KubeObject[] {
  return objects.map((o) =>
    o.kind === 'Secret' && o.data
      ? { ...o, data: Object.fromEntries(Object.keys(o.data as object).map((k) => [k, redacted])) }
      : o,
  );
}

const keyOf = (r: IdentityResource) => `${r.kind} ${r.metadata.namespace ?? 'default'}/${r.metadata.name}`;

/**
 * Validates every document (all of them, before printing anything) and compiles each IdentityServer, sorted by
 * namespace and name, into YAML with Secret values redacted. Any invalid document fails the whole run.
 */
export function synth(documents: readonly SourceDocument[], validate: ResourceValidator): SynthResult {
  const problems: string[] = [];
  const resources = new Map<string, IdentityResource>();
  for (const doc of documents) {
    try {
      const resource = validate(doc.data, doc.source);
      if (resources.has(keyOf(resource)))
        throw new ValidationError(`${doc.source}: ${keyOf(resource)} is defined twice`);
      resources.set(keyOf(resource), resource);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      problems.push(error.message, ...error.details.map((d) => `  ${d}`));
    }
  }
  if (problems.length) {
    throw new ValidationError('synth: nothing was printed because the input is invalid', {
      details: problems,
    });
  }
  const sorted = [...resources.values()].sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
  const counts = { IdentityServer: 0, IdentityRealm: 0, IdentityClient: 0 };
  for (const r of sorted) counts[r.kind]++;
  const objects = sorted
    .filter((r): r is IdentityServer => r.kind === 'IdentityServer')
    // An existing Keycloak (spec.external) compiles to nothing: the operator deploys nothing for it.
    .filter((server) => !server.spec.external)
    .flatMap((server) => {
      const s = resolveServer(server);
      const databaseUser = `(username in Secret ${s.database.namespace}/${s.database.credentialsSecret})`;
      return redactSecrets(
        compileIdentityServer(server, {
          admin: { username: 'admin', password: redacted },
          database: { username: databaseUser, password: redacted },
        }),
      );
    });
  return { yaml: toYamlDocuments(objects), counts, objects: objects.length };
}
