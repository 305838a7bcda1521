// Looking up what a realm or client hangs off: the IdentityServer of a realm and the IdentityRealm of a client,
// with the namespace defaulting to the resource's own.
import type { IdentityClient } from '../../../../generated/types/crds/identityclient.ts';
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import type { IdentityServer } from '../../../../generated/types/crds/identityserver.ts';
import { apiVersion } from '../../compile/kube-object.ts';
import type { Deps } from '../../runtime/deps.ts';

/** `namespace/name` of a realm's server. */
export function serverKeyOf(realm: IdentityRealm): string {
  return `${realm.spec.serverRef.namespace ?? realm.metadata.namespace}/${realm.spec.serverRef.name}`;
}

/** `namespace/name` of a client's realm. */
export function realmKeyOf(client: IdentityClient): string {
  return `${client.spec.realmRef.namespace ?? client.metadata.namespace}/${client.spec.realmRef.name}`;
}

async function getCustom<T>(deps: Deps, kind: string, key: string): Promise<T | undefined> {
  const [namespace, name] = key.split('/');
  return (await deps.kube.get({ apiVersion, kind, namespace, name })) as T | undefined;
}

/** The realm's IdentityServer, if it exists. */
export const getServer = (deps: Deps, key: string) => getCustom<IdentityServer>(deps, 'IdentityServer', key);
/** The client's IdentityRealm, if it exists. */
export const getRealm = (deps: Deps, key: string) => getCustom<IdentityRealm>(deps, 'IdentityRealm', key);
/** A resource by kind and key. */
export const getResource = <T>(deps: Deps, kind: string, key: string) => getCustom<T>(deps, kind, key);
