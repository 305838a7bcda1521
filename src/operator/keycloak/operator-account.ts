// The operator's master identity on Keycloak 25: an account `realmforge-operator` in master holding only the realm
// role `create-realm`, whose tokens come from admin-cli (password grant). Keycloak 25 refuses a service account's
// lightweight token on the admin API (403, measured on 25.0.6) and a service account's full token lists the roles
// of every realm it created (grantPermissionsToRealmCreator), so it grows with the realm count; for an admin-cli
// token Keycloak reads the account's roles from its database and the token stays flat (docs/operator.md has the
// figures). Keycloak gives the account, as a realm's creator, the roles of that realm's `<realm>-realm` client:
// restoring a realm identity and deleting the realm work as on 26. Created once with the bootstrap admin; re-keying
// (the Secret lost, or the password changed in Keycloak) sets a new password.
import type { AdminClient } from './admin-client.ts';
import type { AdminAccount } from './admin-identity.ts';
import { masterRole, OperatorClientConflictError, OperatorIdentityLostError } from './operator-client.ts';

/** The username of the operator's account in master. */
export const operatorAccountName = 'realmforge-operator';

/** First and last name mark the account as the operator's (Keycloak 25's user profile drops unknown attributes)
 * and complete its profile, so that a login is not held for a profile update. */
const mark = { firstName: 'realmforge', lastName: 'operator' };

const enc = encodeURIComponent;

/** Whether a user of master is an operator account (carries the mark). */
export const isOperatorAccount = (user: { firstName?: string; lastName?: string }) =>
  user.firstName === mark.firstName && user.lastName === mark.lastName;

/**
 * With a master admin: creates the operator's account when absent (an existing one is used only when it carries our
 * mark: OperatorClientConflict otherwise), grants it `create-realm` and sets a new password, returned.
 */
export async function provisionOperatorAccount(
  admin: AdminClient,
  namespace: string,
  password: string,
  username: string = operatorAccountName,
): Promise<AdminAccount> {
  const find = async () => {
    const found = (
      await admin.call<{ id: string; firstName?: string; lastName?: string }[]>(
        namespace,
        'GET',
        `/master/users?username=${enc(username)}&exact=true`,
      )
    ).body?.[0];
    if (found && !isOperatorAccount(found)) throw new OperatorClientConflictError(username, 'account');
    return found?.id;
  };
  let id = await find();
  if (!id) {
    await admin.call(namespace, 'POST', '/master/users', { username, enabled: true, ...mark });
    id = await find();
    if (!id)
      throw new OperatorIdentityLostError(`Keycloak did not keep the new account ${username} in master`);
  }
  const role = await admin.call<{ id: string; name: string }>(
    namespace,
    'GET',
    `/master/roles/${masterRole}`,
  );
  if (!role.body?.id) throw new OperatorIdentityLostError(`master has no role ${masterRole}`);
  const mappings = `/master/users/${enc(id)}/role-mappings/realm`;
  const granted = await admin.call<{ name: string }[]>(namespace, 'GET', mappings);
  if (!(granted.body ?? []).some((r) => r.name === masterRole))
    await admin.call(namespace, 'POST', mappings, [role.body]);
  await admin.call(namespace, 'PUT', `/master/users/${enc(id)}/reset-password`, {
    type: 'password',
    value: password,
    temporary: false,
  });
  return { username, password };
}
