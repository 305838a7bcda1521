// When a secret is rotated: never at the moment rotation is turned on, at each period, at once for a new value of
// the annotation (once), and with the previous secret's grace (or none) in Keycloak's rotated-secret attributes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityClient } from '../../../generated/types/crds/identityclient.ts';
import {
  durationSeconds,
  planRotation,
  rotateAnnotation,
  rotatedAtAttribute,
  rotationRequestAttribute,
  rotationSpecProblems,
} from '../../../src/operator/compile/secret-rotation.ts';

const client = (
  spec: Partial<IdentityClient['spec']> = {},
  annotations?: Record<string, string>,
): IdentityClient => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityClient',
  metadata: { name: 'api', namespace: 'team', annotations },
  spec: { realmRef: { name: 'apps' }, ...spec },
});
const hour = 3_600_000;
const t0 = 1_700_000_000_000;
const rotating = client({ secretRotation: { period: '24h', grace: '1h' } });

test('durations: s, m, h, d', () => {
  assert.equal(['10s', '5m', '720h', '30d', '1w'].map(durationSeconds), [
    10,
    300,
    2_592_000,
    2_592_000,
    Number.NaN,
  ]);
});

test('turning rotation on stamps the current secret; it is rotated one period after the stamp, not before', () => {
  const first = planRotation(rotating, {}, t0);
  assert.equal(first, {
    action: 'stamp',
    attributes: { [rotatedAtAttribute]: String(t0 / 1000) },
    nextInMs: 24 * hour,
  });
  const stamped = { [rotatedAtAttribute]: String(t0 / 1000) };
  assert.equal(planRotation(rotating, stamped, t0 + 23 * hour), { action: 'none', nextInMs: hour });
  const due = planRotation(rotating, stamped, t0 + 24 * hour);
  if (due.action !== 'rotate') throw new Error(`expected a rotation, got ${due.action}`);
  const now = t0 / 1000 + 86_400;
  assert.is(due.why, 'scheduled');
  assert.is(due.graceSeconds, 3600);
  assert.equal(
    due.attributes,
    { [rotatedAtAttribute]: String(now) },
    "with a grace only the operator's stamp: Keycloak's executor writes its own rotation attributes",
  );
});

test('without grace the previous secret gets no rotated attributes (sent empty: removed)', () => {
  const plan = planRotation(client({ secretRotation: { period: '10s' } }), { [rotatedAtAttribute]: '0' }, t0);
  if (plan.action !== 'rotate') throw new Error('expected a rotation');
  assert.is(plan.attributes['client.secret.rotated.expiration.time'], '');
  assert.is(plan.graceSeconds, 0);
});

test('a new annotation value rotates once, with or without spec.secretRotation; the handled value is recorded', () => {
  const asked = client({}, { [rotateAnnotation]: 'now-1' });
  const plan = planRotation(asked, {}, t0);
  if (plan.action !== 'rotate') throw new Error('expected a rotation');
  assert.is(plan.why, 'requested');
  assert.is(plan.attributes[rotationRequestAttribute], 'now-1');
  assert.equal(planRotation(asked, plan.attributes, t0 + hour), { action: 'none', nextInMs: undefined });
  assert.equal(planRotation(client(), {}, t0), { action: 'none', nextInMs: undefined }, 'no rotation: never');
});

test('rotation is refused where there is no shared secret, with a too short period or a grace not below it', () => {
  assert.equal(rotationSpecProblems(client({ secretRotation: { period: '24h' } })), []);
  assert.equal(rotationSpecProblems(rotating), [], 'a grace below the period is accepted');
  assert.match(
    rotationSpecProblems(client({ type: 'public', secretRotation: { period: '1h' } }))[0] ?? '',
    /^spec\.secretRotation: only a confidential client .* \(this one is public\)/,
  );
  assert.match(
    rotationSpecProblems(
      client({ authentication: { method: 'client-jwt' } }, { [rotateAnnotation]: 'x' }),
    )[0] ?? '',
    /^annotation realmforge\.dev\/rotate-secret: .*with client-jwt/,
  );
  assert.equal(rotationSpecProblems(client({ secretRotation: { period: '5s', grace: '5s' } })), [
    'spec.secretRotation.period: "5s" is shorter than 10s; use e.g. 720h or 30d',
    'spec.secretRotation.grace: "5s" is not shorter than the period "5s"; two rotations would overlap',
  ]);
});

test.run();
