// Reading Secrets the operator is granted per namespace: a forbidden read says which RoleBinding to create.
import { RealmforgeError } from '../../core/errors.ts';
import type { KubeObject } from '../compile/kube-object.ts';
import type { Deps } from './deps.ts';

/** Credentials as Secrets hold them (keys username and password). */
export type Credentials = { username: string; password: string };

/** The operator may not read Secrets in a namespace: every resource it blocks reports SecretAccessDenied. */
export class SecretAccessDeniedError extends RealmforgeError {
  readonly namespace: string;
  constructor(namespace: string, message: string, options: { cause?: unknown } = {}) {
    super('auth', message, options);
    this.namespace = namespace;
  }
}

/** Secret `namespace/name`, or undefined when absent; a 403 names the binding to create. */
export async function readSecret(
  deps: Deps,
  namespace: string,
  name: string,
): Promise<KubeObject | undefined> {
  try {
    return await deps.kube.get({ apiVersion: 'v1', kind: 'Secret', namespace, name });
  } catch (error) {
    if (error instanceof RealmforgeError && error.kind === 'auth') {
      throw new SecretAccessDeniedError(
        namespace,
        `cannot read Secret ${namespace}/${name}: bind ClusterRole keycloak-operator-namespace-access to the operator's ServiceAccount in namespace ${namespace}`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** The decoded value of `key` in a Secret's data, if present. */
export function secretValue(secret: KubeObject | undefined, key: string): string | undefined {
  const value = (secret?.data as Record<string, string> | undefined)?.[key];
  return value === undefined ? undefined : Buffer.from(value, 'base64').toString('utf8');
}

/** The username and password of a credentials Secret, when both are set. */
export function decodeCredentials(secret: KubeObject | undefined): Credentials | undefined {
  const username = secretValue(secret, 'username');
  const password = secretValue(secret, 'password');
  return username && password ? { username, password } : undefined;
}

/** The decoded value of `ref.key` in Secret `namespace/ref.name`. */
export async function readSecretKey(
  deps: Deps,
  namespace: string,
  ref: { name: string; key: string },
  field?: string,
): Promise<string> {
  const value = secretValue(await readSecret(deps, namespace, ref.name), ref.key);
  if (value === undefined) {
    const where = field ? `${field}: ` : '';
    throw new RealmforgeError(
      'validation',
      `${where}Secret ${namespace}/${ref.name} has no key "${ref.key}"`,
    );
  }
  return value;
}
