// Reading a realm through the operator's identity in it, and what happens when that identity does not work: the
// master identity is asked only then, a realm it may not read names the grant, a realm of someone else's is left.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { RealmforgeError } from '../../../../src/core/errors.ts';
import { readWithIdentity } from '../../../../src/operator/controllers/identity-realm/realm-identity-check.ts';
import { StuckError } from '../../../../src/operator/controllers/shared/stuck-error.ts';
import type { AdminClient } from '../../../../src/operator/keycloak/admin-client.ts';
import type { ServerAdmin } from '../../../../src/operator/keycloak/admins.ts';
import { RealmIdentityRefusedError } from '../../../../src/operator/keycloak/realm-identity.ts';

const realm = (spec: Partial<IdentityRealm['spec']> = {}) =>
  ({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityRealm',
    metadata: { name: 'apps', namespace: 'team' },
    spec: { serverRef: { name: 'kc' }, ...spec },
  }) as IdentityRealm;

/** An admin whose realm identity answers `own` and whose master identity answers `master`; calls are logged. */
function admin(own: () => unknown, master: () => unknown, log: string[]): ServerAdmin {
  const client = (who: string, answer: () => unknown): AdminClient => ({
    baseUrl: 'http://kc',
    async call(_ns, method, path) {
      log.push(`${who} ${method} ${path}`);
      return { status: 200, body: answer() as never };
    },
  });
  return Object.assign(client('realm', own), {
    master: client('master', master),
    masterClientId: 'realmforge-operator',
    realmSecret: () => 'derived',
    statedVersion: () => undefined,
  });
}
const refused = () => {
  throw new RealmIdentityRefusedError('apps', 'refused');
};
const ours = { id: 'r1', realm: 'apps', attributes: { 'realmforge.dev/owner': 'team/apps' } };

test('a working realm identity reads the realm alone: the master identity is not asked', async () => {
  const log: string[] = [];
  const read = await readWithIdentity(
    admin(() => ours, refused, log),
    realm(),
  );
  assert.equal(read, { live: ours, restored: [] });
  assert.equal(log, ['realm GET /apps']);
});

test('an adopted realm the master identity may not read: RealmGrantMissing names the grant, nothing written', async () => {
  for (const master of [
    () => {
      throw new RealmforgeError('auth', 'Keycloak GET /apps: HTTP 403');
    },
    () => ({ realm: 'apps' }), // the name only: create-realm lists it and no more
  ]) {
    const log: string[] = [];
    try {
      await readWithIdentity(admin(refused, master, log), realm({ adoptExisting: true }));
      assert.unreachable();
    } catch (e) {
      assert.instance(e, StuckError);
      assert.is((e as StuckError).reason, 'RealmGrantMissing');
      assert.is((e as StuckError).phase, 'Pending');
      assert.match((e as Error).message, 'client apps-realm in master');
      assert.match((e as Error).message, '--uusername service-account-realmforge-operator');
      assert.match((e as Error).message, 'manage-realm');
    }
    assert.equal(log, ['realm GET /apps', 'master GET /apps']);
  }
});

test('a realm no identity of the operator may read, adoption not asked: RealmNameConflict, nothing written', async () => {
  const log: string[] = [];
  try {
    await readWithIdentity(
      admin(refused, () => ({ realm: 'apps' }), log),
      realm(),
    );
    assert.unreachable();
  } catch (e) {
    assert.instance(e, StuckError);
    assert.is((e as StuckError).reason, 'RealmNameConflict');
    assert.is((e as StuckError).phase, 'Failed');
    assert.match((e as Error).message, 'spec.adoptExisting');
  }
  assert.equal(log, ['realm GET /apps', 'master GET /apps']);
});

test("someone else's realm is returned as it is (RealmNameConflict follows), and nothing is written to it", async () => {
  const log: string[] = [];
  const theirs = { id: 'r2', realm: 'apps', attributes: {} };
  const read = await readWithIdentity(
    admin(refused, () => theirs, log),
    realm(),
  );
  assert.equal(read, { live: theirs, restored: [] });
  assert.equal(log, ['realm GET /apps', 'master GET /apps']);
});

test('an absent realm is absent with either identity', async () => {
  const log: string[] = [];
  const none = admin(
    () => undefined,
    () => undefined,
    log,
  );
  none.call = async (_ns, method, path) => {
    log.push(`realm ${method} ${path}`);
    return { status: 404, body: undefined as never };
  };
  assert.equal(await readWithIdentity(none, realm()), { live: undefined, restored: [] });
  assert.equal(log, ['realm GET /apps']);
});

test.run();
