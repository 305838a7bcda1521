// Realm message overrides (spec.localization.messages) through the realm sync against the strict in-memory
// Keycloak: set in one call per locale, steady, a hand edit reverted, a removed key deleted, overrides made by hand
// kept.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';
import { syncRealm } from '../../../src/operator/controllers/identity-realm/realm-sync.ts';
import { fakeKeycloakAdmin } from './fake-keycloak-admin.ts';

const resource = (messages?: Record<string, Record<string, string>>): IdentityRealm => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityRealm',
  metadata: { name: 'texts', namespace: 'team' },
  spec: {
    serverRef: { name: 'kc' },
    localization: { supportedLocales: ['en', 'de'], defaultLocale: 'en', ...(messages ? { messages } : {}) },
  },
});
const both = {
  en: { loginTitle: 'Sign in to Acme', doLogIn: 'Go' },
  de: { loginTitle: 'Bei Acme anmelden' },
};

test('overrides are set, steady, reverted, and pruned; hand-made ones stay', async () => {
  const kc = fakeKeycloakAdmin();
  const first = await syncRealm(kc.admin, resource(both), {});
  // The create call carries them (localizationTexts).
  assert.equal(first.writes, ['create realm']);
  const texts = () => kc.realms.get('texts')?.messages as Record<string, Record<string, string>>;
  assert.equal(texts(), both);
  kc.reset();
  assert.equal((await syncRealm(kc.admin, resource(both), {})).writes, []);
  assert.equal(kc.calls, ['GET /texts', 'GET /texts/localization/de', 'GET /texts/localization/en']);
  (texts().en as Record<string, string>).loginTitle = 'by hand';
  (texts().en as Record<string, string>).handMade = 'mine';
  assert.equal((await syncRealm(kc.admin, resource(both), {})).writes, ['set en message loginTitle']);
  const trimmed = { en: { loginTitle: 'Sign in to Acme' } };
  // The ledger drops the two only once they are deleted (late-ledgers.ts).
  assert.equal((await syncRealm(kc.admin, resource(trimmed), {})).writes, [
    'delete de message loginTitle',
    'delete en message doLogIn',
    'record realmforge.dev/managed-messages',
  ]);
  assert.equal(texts(), { en: { loginTitle: 'Sign in to Acme', handMade: 'mine' }, de: {} });
  kc.reset();
  assert.equal((await syncRealm(kc.admin, resource(trimmed), {})).writes, []);
  await syncRealm(kc.admin, resource(), {});
  assert.equal(texts().en, { handMade: 'mine' }, 'emptied; the hand-made override stays');
  kc.reset();
  await syncRealm(kc.admin, resource(), {});
  assert.equal(kc.calls, ['GET /texts'], 'nothing declared now or before: not read');
});

test.run();
