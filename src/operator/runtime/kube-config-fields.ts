// The kubeconfig fields `realmforge run` understands, per section. A field outside these lists is refused at
// start with its name, never silently dropped: an ignored `as` would run the operator with the base identity's
// rights, an ignored proxy would send the traffic elsewhere. Unknown fields of entries the current context does
// not use are left alone, as kubectl does.
import { UsageError } from '../../core/errors.ts';

/**
 * Honoured fields, per section. `extensions` carry data for other tools and never change a request;
 * `disable-compression` is honoured trivially (the client never asks for compressed answers); a context's
 * `namespace` is a default for requests without one, and every request the operator sends names its namespace.
 * A `name` inside a context, cluster or user repeats the entry's own name (@kubernetes/client-node's
 * exportConfig writes it; kubectl ignores it) and changes nothing.
 */
export const honouredFields = {
  config: [
    'apiVersion',
    'kind',
    'clusters',
    'users',
    'contexts',
    'current-context',
    'preferences',
    'extensions',
  ],
  context: ['cluster', 'user', 'namespace', 'extensions', 'name'],
  cluster: [
    'server',
    'certificate-authority',
    'certificate-authority-data',
    'insecure-skip-tls-verify',
    'tls-server-name',
    'proxy-url',
    'disable-compression',
    'extensions',
    'name',
  ],
  user: [
    'client-certificate',
    'client-certificate-data',
    'client-key',
    'client-key-data',
    'token',
    'tokenFile',
    'as',
    'as-uid',
    'as-groups',
    'as-user-extra',
    'exec',
    'extensions',
    'name',
  ],
  exec: ['apiVersion', 'command', 'args', 'env', 'installHint', 'provideClusterInfo', 'interactiveMode'],
} as const;

/** Fields with a known reason to be refused, and what to use instead. */
const refusedFields: Record<string, string> = {
  'auth-provider': 'use a token, a token file, an exec credential plugin or a client certificate',
  username: 'basic authentication was removed from Kubernetes 1.19: use a token or a client certificate',
  password: 'basic authentication was removed from Kubernetes 1.19: use a token or a client certificate',
  'token-file': 'the kubeconfig field is tokenFile',
};

/** Refuses the first field of `section` (named `where`) that realmforge run does not honour. */
export function checkFields(
  section: keyof typeof honouredFields,
  value: unknown,
  where: string,
): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new UsageError(`${where} must be a mapping`);
  const honoured: readonly string[] = honouredFields[section];
  for (const [field, setting] of Object.entries(value)) {
    // A null is an absent field (as when Go decodes it), and tools write them: `auth-provider: null`.
    if (honoured.includes(field) || setting === null) continue;
    const hint =
      refusedFields[field] ?? `realmforge run honours only ${honoured.join(', ')}: remove it or use kubectl`;
    throw new UsageError(`${where}: the field "${field}" is not supported by realmforge run (${hint})`);
  }
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
}
