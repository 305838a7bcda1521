// Required actions against the real Keycloak, through the realm sync the operator runs: declared settings read back,
// a steady resync writes nothing, a hand edit is reverted, and an action the spec stops declaring goes back to the
// settings it had before.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityRealm } from '../../generated/types/crds/identityrealm.ts';
import { realmAdmin, realmResource } from './helpers/realm-admin.ts';

let kc: Awaited<ReturnType<typeof realmAdmin>>;
type Rep = Record<string, any>;

test.before(async () => {
  kc = await realmAdmin();
});
test.after(async () => {
  await kc?.close(['acts']);
});

const declared = (): IdentityRealm =>
  realmResource('acts', {
    requiredActions: [
      { alias: 'CONFIGURE_TOTP', defaultAction: true, priority: 5 },
      { alias: 'TERMS_AND_CONDITIONS', enabled: true, priority: 6 },
    ],
  });
const settings = async () =>
  Object.fromEntries(
    ((await kc.get('/acts/authentication/required-actions')) as Rep[]).map((a) => [
      a.alias,
      [a.enabled, a.defaultAction, a.priority],
    ]),
  );

test('required actions: applied, steady, reverted, and back to their settings from before', async () => {
  await kc.sync(realmResource('acts', {}));
  const before = await settings();
  await kc.sync(declared());
  const applied = await settings();
  assert.equal(applied.CONFIGURE_TOTP, [true, true, 5]);
  assert.equal(applied.TERMS_AND_CONDITIONS, [true, before.TERMS_AND_CONDITIONS?.[1], 6]);
  kc.counter.writes = 0;
  assert.equal((await kc.sync(declared())).writes, [], 'steady');
  assert.is(kc.counter.writes, 0);
  const totp = ((await kc.get('/acts/authentication/required-actions')) as Rep[]).find(
    (a) => a.alias === 'CONFIGURE_TOTP',
  );
  await kc.admin.call('e2e', 'PUT', '/acts/authentication/required-actions/CONFIGURE_TOTP', {
    ...totp,
    defaultAction: false,
  });
  assert.equal((await kc.sync(declared())).writes, ['update required action CONFIGURE_TOTP']);
  assert.equal((await settings()).CONFIGURE_TOTP, [true, true, 5]);
  const reset = await kc.sync(realmResource('acts', {}));
  assert.ok(reset.writes.includes('update required action TERMS_AND_CONDITIONS'), reset.writes.join('; '));
  const after = await settings();
  assert.equal(after.CONFIGURE_TOTP, before.CONFIGURE_TOTP);
  assert.equal(after.TERMS_AND_CONDITIONS, before.TERMS_AND_CONDITIONS);
  await kc.sync(realmResource('acts', {}));
  kc.counter.writes = 0;
  assert.equal((await kc.sync(realmResource('acts', {}))).writes, [], 'steady after the reset');
  assert.is(kc.counter.writes, 0);
});

test.run();
