// The realm's one list of steps is in an order that works for a new realm and for an existing one: every step
// comes after the steps that give what it needs, in each of the two (a step that runs for only one of them gives
// nothing to the other). Behaviour of the list itself is proven through syncRealm by the section suites.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Need, realmSteps } from '../../../../src/operator/controllers/identity-realm/realm-steps.ts';

/** The needs no earlier step gives, as `<mode>: <step> needs <need>`. */
function unmet(mode: 'create' | 'update'): string[] {
  // An existing realm is read before the first step.
  const given = new Set<Need>(mode === 'update' ? ['live'] : []);
  const problems: string[] = [];
  for (const step of realmSteps) {
    if (step[mode] === false) continue;
    for (const need of step.needs) if (!given.has(need)) problems.push(`${mode}: ${step.name} needs ${need}`);
    for (const gives of step.gives ?? []) given.add(gives);
  }
  return problems;
}

test('every step comes after what it needs, for a new realm and for an existing one', () => {
  assert.equal(unmet('create'), []);
  assert.equal(unmet('update'), []);
});

test('each step is named once, and every need is given by some step', () => {
  const names = realmSteps.map((s) => s.name);
  assert.equal(new Set(names).size, names.length);
  const given = new Set(realmSteps.flatMap((s) => s.gives ?? []));
  for (const step of realmSteps)
    for (const need of step.needs) assert.ok(given.has(need) || need === 'live', `${step.name}: ${need}`);
});

test('a new realm is created first and its federation synced last; an existing one syncs federation before its update', () => {
  const create = realmSteps.filter((s) => s.create !== false).map((s) => s.name);
  const update = realmSteps.filter((s) => s.update !== false).map((s) => s.name);
  assert.is(create[0], 'create the realm');
  assert.is(create.at(-1), 'federation of a new realm');
  assert.ok(update.indexOf('federation of an existing realm') < update.indexOf('realm update'));
  assert.ok(!update.includes('create the realm'));
});

test('every step that may run for a new realm says why the create call does not carry it (realm-create.ts)', () => {
  const after = realmSteps.filter((s) => s.create !== false && s.name !== 'create the realm');
  assert.ok(after.length > 0);
  for (const step of after) assert.ok(step.afterCreate?.trim(), `${step.name}: no afterCreate reason`);
  // A step the create call carries whole runs for a new realm no more.
  for (const step of realmSteps.filter((s) => s.create === false))
    assert.is(step.afterCreate, undefined, `${step.name}: never runs after a create, needs no reason`);
});

test.run();
