// Reading one key of a Secret named by a resource (an SMTP password, for example), with errors that say what to do.
import { RealmforgeError } from '../../core/errors.ts';
import type { Deps } from '../runtime/deps.ts';

/** The decoded value of `ref.key` in Secret `namespace/ref.name`. */
export async function readSecretKey(
  deps: Deps,
  namespace: string,
  ref: { name: string; key: string },
): Promise<string> {
  let secret: Awaited<ReturnType<Deps['kube']['get']>>;
  try {
    secret = await deps.kube.get({ apiVersion: 'v1', kind: 'Secret', namespace, name: ref.name });
  } catch (error) {
    if (error instanceof RealmforgeError && error.kind === 'auth') {
      throw new RealmforgeError(
        'auth',
        `cannot read Secret ${namespace}/${ref.name}: bind ClusterRole keycloak-operator-namespace-access to the operator's ServiceAccount in namespace ${namespace}`,
        { cause: error },
      );
    }
    throw error;
  }
  const value = (secret?.data as Record<string, string> | undefined)?.[ref.key];
  if (value === undefined) {
    throw new RealmforgeError('validation', `Secret ${namespace}/${ref.name} has no key "${ref.key}"`);
  }
  return Buffer.from(value, 'base64').toString('utf8');
}
