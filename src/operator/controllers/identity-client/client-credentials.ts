// The credentials Secret of a Ready client: <client>-credentials (or spec.secretName) in the client's namespace,
// owned by the IdentityClient and labelled with client and realm. A Secret of that name that is not this client's
// is replaced only when it carries our labels and its owner is gone; otherwise it is a conflict the user resolves.
import type { IdentityClient } from '../../../../generated/types/crds/identityclient.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import { apiVersion, type KubeObject } from '../../compile/kube-object.ts';
import { labelValue, objectName } from '../../compile/names.ts';
import type { Deps } from '../../runtime/deps.ts';
import { applyReason, withAppliedHash } from '../../runtime/desired-state.ts';
import { readSecret } from '../../runtime/read-secret.ts';
import { StuckError } from '../shared/stuck-error.ts';

/** The OIDC endpoints of a realm, as written to the Secret and the client's status. */
export type RealmEndpoints = {
  keycloakUrl: string;
  issuer: string;
  token: string;
  authorization: string;
  userinfo: string;
  jwks: string;
  /** Where an application sends RP-initiated logout (OIDC end_session_endpoint). */
  logout: string;
};

/** The endpoints under an issuer URL. */
export function realmEndpoints(keycloakUrl: string, issuer: string): RealmEndpoints {
  const oidc = `${issuer}/protocol/openid-connect`;
  return {
    keycloakUrl,
    issuer,
    token: `${oidc}/token`,
    authorization: `${oidc}/auth`,
    userinfo: `${oidc}/userinfo`,
    jwks: `${oidc}/certs`,
    logout: `${oidc}/logout`,
  };
}

/** The Secret's name (names.ts: shortened with a hash when the client's name is too long for the suffix). */
export const credentialsSecretName = (client: IdentityClient) =>
  client.spec.secretName ?? objectName(client.metadata.name, '-credentials');

const labels = (client: IdentityClient, realm: string) => ({
  'app.kubernetes.io/managed-by': 'realmforge',
  'realmforge.dev/client': labelValue(client.metadata.name),
  'realmforge.dev/realm': labelValue(realm),
});

/** What a SAML application needs besides its entity ID: where the IdP's metadata is, and its signing certificate. */
export type SamlValues = { metadataUrl: string; ssoUrl: string; signingCertificate?: string };

/** The realm's SAML endpoints under an issuer URL. */
export const samlEndpoints = (issuer: string) => ({
  metadataUrl: `${issuer}/protocol/saml/descriptor`,
  ssoUrl: `${issuer}/protocol/saml`,
});

/** The desired Secret (string values base64-encoded as `data`): OIDC endpoints, or for SAML the IdP's values. */
export function credentialsSecret(
  client: IdentityClient,
  values: {
    clientId: string;
    clientSecret?: string;
    realm: string;
    endpoints: RealmEndpoints;
    saml?: SamlValues;
  },
): KubeObject {
  const e = values.endpoints;
  const protocolEntries: [string, string | undefined][] = values.saml
    ? [
        ['entity-id', values.clientId],
        ['idp-metadata-url', values.saml.metadataUrl],
        ['idp-sso-url', values.saml.ssoUrl],
        ['idp-signing-certificate', values.saml.signingCertificate],
      ]
    : [
        ['client-secret', values.clientSecret],
        ['token-endpoint', e.token],
        ['authorization-endpoint', e.authorization],
        ['userinfo-endpoint', e.userinfo],
        ['jwks-uri', e.jwks],
        ['end-session-endpoint', e.logout],
      ];
  const entries: [string, string | undefined][] = [
    ['client-id', values.clientId],
    ['realm', values.realm],
    ['issuer', e.issuer],
    ['keycloak-url', e.keycloakUrl],
    ...protocolEntries,
  ];
  const data = Object.fromEntries(
    entries
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, Buffer.from(v as string).toString('base64')]),
  );
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: credentialsSecretName(client),
      namespace: client.metadata.namespace,
      labels: labels(client, values.realm),
      ownerReferences: [
        {
          apiVersion,
          kind: 'IdentityClient',
          name: client.metadata.name,
          uid: client.metadata.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    type: 'Opaque',
    data,
  };
}

/** Reads the Secret; a 403 becomes a StuckError (SecretAccessDenied) naming the binding to create. */
export async function readCredentialsSecret(
  deps: Deps,
  client: IdentityClient,
): Promise<KubeObject | undefined> {
  const namespace = client.metadata.namespace ?? 'default';
  try {
    return await readSecret(deps, namespace, credentialsSecretName(client));
  } catch (error) {
    if (error instanceof RealmforgeError && error.kind === 'auth') {
      throw new StuckError(
        'auth',
        'Pending',
        'SecretAccessDenied',
        `the operator may not read or write Secrets in namespace ${namespace}: create a RoleBinding there to ClusterRole keycloak-operator-namespace-access for its ServiceAccount (the realmforge-client chart does this with rbac.create=true)`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** Why `live` may not be replaced, or undefined when it is this client's or an orphan of ours. */
export async function secretConflict(deps: Deps, client: IdentityClient, live: KubeObject | undefined) {
  if (!live) return undefined;
  const owner = live.metadata.ownerReferences?.find((r) => r.kind === 'IdentityClient' && r.controller);
  if (owner?.uid === client.metadata.uid) return undefined;
  const ours =
    live.metadata.labels?.['app.kubernetes.io/managed-by'] === 'realmforge' &&
    live.metadata.labels?.['realmforge.dev/client'];
  if (ours) {
    const current = owner
      ? await deps.kube.get({
          apiVersion,
          kind: 'IdentityClient',
          namespace: live.metadata.namespace,
          name: owner.name,
        })
      : undefined;
    if (!current || current.metadata.uid !== owner?.uid) return undefined;
  }
  const ns = live.metadata.namespace;
  const name = live.metadata.name;
  return `Secret ${ns}/${name} already exists and belongs to ${ours ? `IdentityClient ${owner?.name}` : 'something else'}: delete it (kubectl delete secret -n ${ns} ${name}) or set spec.secretName, then annotate this IdentityClient with reconcile=<any new value>`;
}

/** Applies the Secret when it is missing or differs; returns whether it wrote. */
export async function syncCredentialsSecret(deps: Deps, desired: KubeObject, live: KubeObject | undefined) {
  const want = withAppliedHash(desired);
  if (!applyReason(want, live)) return false;
  await deps.kube.apply(want);
  return true;
}

/**
 * Deletes this client's credentials Secret (a client whose namespace lost its grant keeps no credentials that
 * still look valid; the secret value stays in the disabled Keycloak client and comes back with the grant).
 * Returns whether it deleted; a Secret that is not this client's, or one the operator may not read, is left.
 */
export async function removeCredentialsSecret(deps: Deps, client: IdentityClient): Promise<boolean> {
  const live = await readCredentialsSecret(deps, client).catch(() => undefined);
  const owner = live?.metadata.ownerReferences?.find((r) => r.kind === 'IdentityClient' && r.controller);
  if (!live || owner?.uid !== client.metadata.uid) return false;
  await deps.kube.delete({
    apiVersion: 'v1',
    kind: 'Secret',
    namespace: live.metadata.namespace,
    name: live.metadata.name,
  });
  return true;
}
