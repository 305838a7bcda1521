// Secret rotation through the client controller against the in-memory cluster and Keycloak: without a grace the
// new secret is written in one PUT; with one, the realm gets the operator's grace profile and policy and Keycloak
// regenerates the secret keeping the previous one; the credentials Secret follows, an Event records it, a steady
// resync writes nothing, and a grace the server cannot honour is refused before anything is written.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { identityClientController } from '../../../../src/operator/controllers/identity-client/identity-client.ts';
import { identityRealmController } from '../../../../src/operator/controllers/identity-realm/identity-realm.ts';
import { secretValue } from '../../../../src/operator/runtime/read-secret.ts';
import { clientResource, keycloakWorld, realmResource, statusOf, type World } from '../keycloak-world.ts';

const hour = 3_600_000;

async function world(spec: object, feature = true): Promise<World> {
  const w = keycloakWorld([
    realmResource('apps', 'identity', { clientAuthorizationGrants: ['team'] }),
    clientResource('api', 'team', spec),
  ]);
  if (feature) w.keycloak.enableFeature('CLIENT_SECRET_ROTATION');
  await identityRealmController(w.deps)('identity/apps');
  return w;
}
const reconcile = (w: World) => identityClientController(w.deps)('team/api');
const kcClient = (w: World) => w.keycloak.realms.get('apps')?.clients.find((c) => c.clientId === 'api');
const stored = (w: World) => secretValue(w.kube.find('Secret', 'team', 'api-credentials'), 'client-secret');

test('a due rotation: new secret in Keycloak and the Secret in one write each, one Event', async () => {
  const w = await world({ secretRotation: { period: '24h' } });
  const first = await reconcile(w);
  assert.is(first.outcome?.phase, 'Ready');
  assert.ok(first.outcome?.writes?.includes('stamp secret age'));
  const original = stored(w);
  assert.ok(original && original === kcClient(w)?.secret);
  w.keycloak.reset();
  const steady = await reconcile(w);
  assert.equal(w.keycloak.writes(), [], 'a steady resync writes nothing');
  assert.is(steady.requeueAfterMs, Math.min(w.deps.driftIntervalMs, 24 * hour));
  w.clock.advance(24 * hour);
  w.keycloak.reset();
  const rotated = await reconcile(w);
  assert.ok(rotated.outcome?.writes?.includes('rotate secret (scheduled)'));
  const puts = w.keycloak.writes();
  assert.is(puts.length, 1, `one write rotates: ${puts.join(', ')}`);
  const now = Math.floor(w.clock.now() / 1000);
  assert.match(stored(w) ?? '', /^generated-pw-\d+$/, 'a new secret made by the operator');
  assert.is.not(stored(w), original);
  assert.is(kcClient(w)?.secret, stored(w));
  assert.is(kcClient(w)?.attributes['realmforge.dev/secret-rotated-at'], String(now));
  const events = w.kube.events.filter((e) => e.reason === 'SecretRotated');
  assert.is(events.length, 1);
  assert.match(events[0]?.message ?? '', /secret rotated \(scheduled\).*the previous secret no longer works/);
  assert.not.match(
    events[0]?.message ?? '',
    new RegExp(`generated-pw|${original}`),
    'no secret in the Event',
  );
  w.keycloak.reset();
  await reconcile(w);
  assert.equal(w.keycloak.writes(), [], 'after the rotation a resync writes nothing');
});

test('the annotation rotates at once and only once per value; without grace the old secret is dropped', async () => {
  const w = await world({});
  await reconcile(w);
  const original = stored(w);
  const c = w.kube.find('IdentityClient', 'team', 'api');
  if (!c) throw new Error('no client');
  w.kube.put({ ...c, metadata: { ...c.metadata, annotations: { 'realmforge.dev/rotate-secret': '1' } } });
  const asked = await reconcile(w);
  assert.ok(asked.outcome?.writes?.includes('rotate secret (requested)'));
  assert.is.not(stored(w), original);
  assert.is(stored(w), kcClient(w)?.secret);
  assert.is(kcClient(w)?.attributes['client.secret.rotated'], undefined, 'no grace: nothing kept');
  w.keycloak.reset();
  await reconcile(w);
  assert.equal(w.keycloak.writes(), [], 'the same value does not rotate again');
});

test('without secretRotation nor annotation the secret never changes', async () => {
  const w = await world({});
  await reconcile(w);
  const original = stored(w);
  w.clock.advance(1000 * 24 * hour);
  w.keycloak.reset();
  await reconcile(w);
  assert.equal(w.keycloak.writes(), []);
  assert.is(stored(w), original);
});

test('a grace: the realm gets the grace profile and policy, Keycloak regenerates and keeps the old secret, updates keep it', async () => {
  const w = await world({ secretRotation: { period: '24h', grace: '1h' } });
  await reconcile(w);
  const original = stored(w);
  assert.is(
    kcClient(w)?.attributes['realmforge.dev/secret-rotation-grace'],
    '3600',
    'the condition attribute',
  );
  w.clock.advance(24 * hour);
  w.keycloak.reset();
  const rotated = await reconcile(w);
  assert.equal(rotated.outcome?.writes?.slice(0, 3), [
    'create client profile realmforge-secret-rotation-3600s',
    'create client policy realmforge-secret-rotation-3600s',
    'rotate secret (scheduled, grace 3600s)',
  ]);
  assert.ok(
    w.keycloak.writes().some((c) => c.endsWith('/client-secret')),
    'Keycloak regenerates it (POST client-secret)',
  );
  assert.is.not(stored(w), original);
  assert.is(stored(w), kcClient(w)?.secret, 'the Secret holds the new secret');
  assert.is(kcClient(w)?.attributes['client.secret.rotated'], original, 'Keycloak keeps the previous one');
  const event = w.kube.events.find((e) => e.reason === 'SecretRotated');
  assert.match(event?.message ?? '', /the previous secret keeps working until about/);
  // A drift fix (an admin update of the client) keeps the rotated secret: the policy applies to the client.
  const c = kcClient(w) as Record<string, unknown>;
  c.standardFlowEnabled = false;
  w.keycloak.reset();
  const fixed = await reconcile(w);
  assert.ok(fixed.outcome?.writes?.some((x) => x.startsWith('update client')));
  assert.is(kcClient(w)?.attributes['client.secret.rotated'], original, 'kept through the update');
  w.keycloak.reset();
  await reconcile(w);
  assert.equal(w.keycloak.writes(), [], 'a steady resync writes nothing');
  // Another rotation reuses the profile and policy (read, not rewritten).
  w.clock.advance(24 * hour);
  w.keycloak.reset();
  const again = await reconcile(w);
  assert.ok(again.outcome?.writes?.includes('rotate secret (scheduled, grace 3600s)'));
  assert.not.ok(
    again.outcome?.writes?.some((x) => x.includes('client p')),
    'profile and policy already right',
  );
});

test('a grace on a server without client-secret-rotation is Failed/InvalidSpec before anything is written', async () => {
  const w = await world({ secretRotation: { period: '24h', grace: '1h' } }, false);
  w.keycloak.reset();
  await reconcile(w);
  const status = statusOf(w, 'IdentityClient', 'team', 'api');
  assert.is(status.reason, 'InvalidSpec');
  assert.match(
    status.message ?? '',
    /spec\.secretRotation\.grace: .* without the preview feature client-secret-rotation/,
  );
  assert.equal(w.keycloak.writes(), []);
});

test.run();
