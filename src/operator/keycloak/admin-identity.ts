// Who the operator is toward Keycloak's admin API: the bootstrap admin account (password grant with admin-cli),
// used once to create the operator's own service-account client, or that client (client_credentials grant),
// used for everything afterwards. One token request form for both, shared by the admin client and the probe.
import { RealmforgeError } from '../../core/errors.ts';

/** A bootstrap admin account (username and password, from <server>-admin-credentials). */
export type AdminAccount = { readonly username: string; readonly password: string };

/** The operator's own confidential client: in master (from <server>-operator-client), or inside one realm (its
 * realm identity, realm-identity.ts), whose token comes from that realm's token endpoint. */
export type OperatorClient = {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly realm?: string;
};

/** Either identity. */
export type AdminIdentity = AdminAccount | OperatorClient;

/** Whether the identity is the operator's own client. */
export const isOperatorClient = (identity: AdminIdentity): identity is OperatorClient =>
  'clientId' in identity;

/** The realm whose token endpoint issues the identity's tokens. */
export const tokenRealm = (identity: AdminIdentity) =>
  (isOperatorClient(identity) && identity.realm) || 'master';

/** The form of the token request on /realms/<tokenRealm>/protocol/openid-connect/token. */
export function tokenForm(identity: AdminIdentity): URLSearchParams {
  if (isOperatorClient(identity)) {
    return new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: identity.clientId,
      client_secret: identity.clientSecret,
    });
  }
  return new URLSearchParams({
    grant_type: 'password',
    client_id: 'admin-cli',
    username: identity.username,
    password: identity.password,
  });
}

/** A stable cache key for an identity (the secret part included, so a rotated secret gets a new client). */
export const identityKey = (identity: AdminIdentity) =>
  isOperatorClient(identity)
    ? `client:${tokenRealm(identity)}:${identity.clientId}:${identity.clientSecret}`
    : `user:${identity.username}:${identity.password}`;

/** How the identity is named in messages (never its secret). */
export const identityName = (identity: AdminIdentity) =>
  isOperatorClient(identity)
    ? `the operator's client ${identity.clientId}${identity.realm ? ` in realm ${identity.realm}` : ''}`
    : `the admin account ${identity.username}`;

/** Keycloak refused the identity's credentials at the token endpoint (401, or 400 invalid_client/invalid_grant). */
export class TokenRefusedError extends RealmforgeError {
  readonly identity: AdminIdentity;
  constructor(identity: AdminIdentity, message: string) {
    super('auth', message);
    this.name = 'TokenRefusedError';
    this.identity = identity;
  }
}

/** The token endpoint answered 404: the identity's realm does not exist (a realm identity before its realm). */
export class TokenRealmAbsentError extends RealmforgeError {
  constructor(realm: string) {
    super('not_found', `realm ${realm} does not exist`);
    this.name = 'TokenRealmAbsentError';
  }
}

/** The token endpoint answered 403: the identity's realm issues no tokens here, not even to it (the realm is
 * disabled, or requires HTTPS and the connection is plain HTTP). */
export class TokenRealmClosedError extends RealmforgeError {
  constructor(realm: string, why: string) {
    super('auth', `realm ${realm} issues no tokens (${why})`);
    this.name = 'TokenRealmClosedError';
  }
}
