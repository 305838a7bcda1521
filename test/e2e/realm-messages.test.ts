// Realm message overrides against the real Keycloak, through the realm sync the operator runs: set, read back
// (and shown: the login page uses the override), steady, a hand edit reverted, a removed key deleted while an
// override made by hand stays.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityRealm } from '../../generated/types/crds/identityrealm.ts';
import { realmAdmin, realmResource } from './helpers/realm-admin.ts';

let kc: Awaited<ReturnType<typeof realmAdmin>>;

test.before(async () => {
  kc = await realmAdmin();
});
test.after(async () => {
  await kc?.close(['texts']);
});

const texts = (messages?: Record<string, Record<string, string>>): IdentityRealm =>
  realmResource('texts', {
    login: { sslRequired: 'none' },
    localization: { supportedLocales: ['en', 'de'], defaultLocale: 'en', ...(messages ? { messages } : {}) },
  });
const both = {
  en: { loginAccountTitle: 'Sign in to Acme', doLogIn: 'Go' },
  de: { loginAccountTitle: 'Bei Acme anmelden' },
};

test('overrides: set and shown, steady, a hand edit reverted, pruned with hand-made ones kept', async () => {
  await kc.sync(texts(both));
  assert.equal(await kc.get('/texts/localization/en'), both.en);
  assert.equal(await kc.get('/texts/localization/de'), both.de);
  const page = await fetch(
    `${kc.env.state.keycloak?.httpUrl}/realms/texts/protocol/openid-connect/auth?client_id=account&response_type=code&scope=openid&redirect_uri=${encodeURIComponent(`${kc.env.state.keycloak?.httpUrl}/realms/texts/account/`)}`,
  ).then((r) => r.text());
  assert.ok(page.includes('Sign in to Acme'), 'the login page shows the override');
  kc.counter.writes = 0;
  assert.equal((await kc.sync(texts(both))).writes, [], 'steady');
  assert.is(kc.counter.writes, 0);
  await kc.admin.call('e2e', 'POST', '/texts/localization/en', {
    loginAccountTitle: 'by hand',
    handMade: 'mine',
  });
  assert.equal((await kc.sync(texts(both))).writes, ['set en message loginAccountTitle']);
  const trimmed = { en: { loginAccountTitle: 'Sign in to Acme' } };
  const result = await kc.sync(texts(trimmed));
  for (const w of ['delete de message loginAccountTitle', 'delete en message doLogIn'])
    assert.ok(result.writes.includes(w), `${w} in ${result.writes.join('; ')}`);
  assert.equal(await kc.get('/texts/localization/en'), {
    loginAccountTitle: 'Sign in to Acme',
    handMade: 'mine',
  });
  kc.counter.writes = 0;
  assert.equal((await kc.sync(texts(trimmed))).writes, [], 'steady after pruning');
  assert.is(kc.counter.writes, 0);
});

test.run();
