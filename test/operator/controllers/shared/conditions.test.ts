// Ready and Synced: Synced follows every reconcile; a verified Ready is held while the operator cannot look (for
// the grace period, measured from the moment Synced turned False), never for a new object, a new generation or a
// spec problem. Pure cases first, then the realm and client controllers against a Keycloak that goes down.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { identityClientController } from '../../../../src/operator/controllers/identity-client/identity-client.ts';
import { identityRealmController } from '../../../../src/operator/controllers/identity-realm/identity-realm.ts';
import {
  defaultReadyGraceMs,
  mergeConditions,
  readiness,
  type Verdict,
} from '../../../../src/operator/controllers/shared/conditions.ts';
import { clientResource, keycloakWorld, realmResource, rejects, type World } from '../keycloak-world.ts';

const t0 = Date.parse('2026-01-01T00:00:00Z');
const grace = 600_000;
const ready: Verdict = { phase: 'Ready', reason: 'Ready', message: 'realm apps matches' };
const down: Verdict = { phase: 'Provisioning', reason: 'KeycloakUnavailable', message: 'HTTP 500 boom' };

/** Conditions as stored after reporting `verdict` at `at` over `previous`. */
function store(previous: ReturnType<typeof mergeConditions>, verdict: Verdict, at: number, generation = 1) {
  const found = readiness(previous, generation, verdict, at, grace);
  return {
    found,
    stored: mergeConditions(previous, found.conditions, generation, new Date(at).toISOString()),
  };
}
type Cond = { type: string; status?: string; reason?: string; lastTransitionTime?: string };
const cond = (list: readonly Cond[], type: string) => list.find((c) => c.type === type);

test('a verified reconcile: Ready True and Synced True (ReconcileSuccess), phase Ready', () => {
  const { found } = store([], ready, t0);
  assert.is(found.phase, 'Ready');
  assert.is(cond(found.conditions, 'Ready')?.status, 'True');
  assert.equal(cond(found.conditions, 'Synced'), {
    type: 'Synced',
    status: 'True',
    reason: 'ReconcileSuccess',
    message: 'realm apps matches',
  });
});

test('an outage holds a verified Ready for the grace from the first failure, then lets it go', () => {
  const verified = store([], ready, t0).stored;
  const first = store(verified, down, t0 + 60_000);
  assert.equal([first.found.phase, first.found.reason], ['Ready', 'KeycloakUnavailable']);
  assert.equal(cond(first.stored, 'Ready'), { ...cond(verified, 'Ready') }, 'Ready unchanged');
  assert.is(cond(first.stored, 'Synced')?.status, 'False');
  assert.is(cond(first.stored, 'Synced')?.reason, 'KeycloakUnavailable');
  assert.match(first.found.message, /HTTP 500 boom; Ready as last verified until 2026-01-01T00:11:00.000Z/);
  // Later failures do not move the start of the outage: the grace ends 10 minutes after the first one.
  const before = store(first.stored, down, t0 + 60_000 + grace - 1);
  assert.is(before.found.phase, 'Ready');
  assert.is(cond(before.stored, 'Synced')?.lastTransitionTime, new Date(t0 + 60_000).toISOString());
  const after = store(before.stored, down, t0 + 60_000 + grace);
  assert.equal([after.found.phase, after.found.reason], ['Provisioning', 'KeycloakUnavailable']);
  assert.is(cond(after.stored, 'Ready')?.status, 'False');
  const back = store(after.stored, ready, t0 + 2 * grace);
  assert.equal(
    back.stored.map((c) => c.status),
    ['True', 'True'],
  );
});

test('never held: a new object, a new generation, a spec problem, an unverified reason after a spec problem', () => {
  assert.is(store([], down, t0).found.phase, 'Provisioning', 'a new object is not Ready');
  const verified = store([], ready, t0).stored;
  assert.is(store(verified, down, t0 + 1, 2).found.phase, 'Provisioning', 'generation 2 is not verified');
  const invalid = { phase: 'Failed', reason: 'InvalidSpec', message: 'bad' } as const;
  const failed = store(verified, invalid, t0 + 1);
  assert.is(failed.found.phase, 'Failed');
  assert.is(cond(failed.stored, 'Ready')?.status, 'False');
  assert.is(store(failed.stored, down, t0 + 2).found.phase, 'Provisioning');
  for (const reason of ['ServerNotReady', 'RealmNotReady', 'HealthNotReady', 'DeploymentNotAvailable']) {
    const held = store(verified, { phase: 'Pending', reason, message: 'waiting' }, t0 + 1).found;
    assert.is(held.phase, 'Ready', reason);
  }
});

const realmKey = 'identity/apps';
const reconcileRealm = (w: World) => identityRealmController(w.deps)(realmKey);
const stored = (w: World, kind: string, key: string) => {
  const [ns, name] = key.split('/');
  return w.kube.find(kind, ns, name)?.status as {
    phase: string;
    reason: string;
    conditions: { type: string; status: string; reason: string }[];
  };
};
const readySynced = (w: World, kind: string, key: string) => {
  const s = stored(w, kind, key);
  return [
    s.phase,
    cond(s.conditions as never, 'Ready')?.status,
    cond(s.conditions as never, 'Synced')?.reason,
  ];
};

test('controllers: Keycloak down keeps a Ready realm and client Ready (Synced False), not a new realm; grace ends; recovery', async () => {
  const w = keycloakWorld([
    realmResource('apps', 'identity', { clientAuthorizationGrants: ['identity'] }),
    clientResource('web', 'identity'),
  ]);
  await reconcileRealm(w);
  await identityClientController(w.deps)('identity/web');
  assert.equal(readySynced(w, 'IdentityClient', 'identity/web'), ['Ready', 'True', 'ReconcileSuccess']);
  w.keycloak.setDown(true);
  w.clock.advance(30_000);
  await rejects(reconcileRealm(w), /unreachable/);
  await rejects(identityClientController(w.deps)('identity/web'), /unreachable/);
  assert.equal(readySynced(w, 'IdentityRealm', realmKey), ['Ready', 'True', 'KeycloakUnavailable']);
  assert.equal(readySynced(w, 'IdentityClient', 'identity/web'), ['Ready', 'True', 'KeycloakUnavailable']);
  w.kube.put(realmResource('fresh', 'identity'));
  await rejects(identityRealmController(w.deps)('identity/fresh'), /unreachable/);
  assert.equal(readySynced(w, 'IdentityRealm', 'identity/fresh'), [
    'Provisioning',
    'False',
    'KeycloakUnavailable',
  ]);
  w.clock.advance(defaultReadyGraceMs);
  await rejects(reconcileRealm(w), /unreachable/);
  assert.equal(readySynced(w, 'IdentityRealm', realmKey), ['Provisioning', 'False', 'KeycloakUnavailable']);
  assert.is(w.kube.events.at(-1)?.type, 'Warning');
  w.keycloak.setDown(false);
  await reconcileRealm(w);
  assert.equal(readySynced(w, 'IdentityRealm', realmKey), ['Ready', 'True', 'ReconcileSuccess']);
});

test.run();
