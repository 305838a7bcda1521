// The table behind every section's plan test: (desired, live, ownership) -> plan, through planCollection alone
// (pure: no Keycloak, no fake). Every section runs the same transitions of the ownership state machine
// (docs/ownership.md), written once here with their expected plans, plus rows of its own for what it compares
// specially. A failing row is named by section and row.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type {
  Collection,
  Item,
  LegacyMark,
  Ownership,
} from '../../../src/operator/keycloak/collections/collection.ts';
import { type Plan, planCollection } from '../../../src/operator/keycloak/collections/plan.ts';

/** A section's collection, and one item of it by name `k` in two versions `v` differing on a compared field. */
export type Section = {
  name: string;
  c: Collection;
  /** A declared item, as its compiler makes it. */
  want(k: string, v?: 0 | 1): Item;
  /** The same item as Keycloak lists it (ids and what Keycloak fills in), unmarked. */
  have(k: string, v?: 0 | 1): Item;
  /** For a section whose items an earlier version marked: that mark read, and an item marked by an owner. */
  legacy?: { mark: (owner: string) => LegacyMark; on: (owner: string, item: Item) => Item };
};

/** Keys of the items each list of the plan names (conflicts by key; claim as is). */
type Expect = Partial<Record<'create' | 'update' | 'delete' | 'conflicts' | 'claim', string[]>>;

/** One row: live items, the ledger's keys (recorded, Keycloak's own) for a ledger section, and the plan. */
export type Row = {
  name: string;
  desired: Item[];
  live: Item[];
  managed?: string[];
  keycloak?: string[];
  adopt?: boolean;
  expect: Expect;
};

export const owner = 'team/apps';
const other = 'team/other';

function summary(c: Collection, plan: Plan): Required<Expect> {
  return {
    create: plan.create.map((i) => c.key(i)),
    update: plan.update.map((u) => u.key),
    delete: plan.delete.map((i) => c.key(i)),
    conflicts: plan.conflicts.map((x) => x.key),
    claim: [...plan.claim],
  };
}

function check(s: Section, row: Row): void {
  const ownership: Ownership = {
    managed: new Set(row.managed),
    keycloak: new Set(row.keycloak),
    ...(s.legacy ? { legacy: s.legacy.mark(owner) } : {}),
  };
  const plan = planCollection(s.c, row.desired, row.live, ownership, { adopt: row.adopt });
  const what = `${s.name}: ${row.name}`;
  const none = { create: [], update: [], delete: [], conflicts: [], claim: [] };
  assert.equal(summary(s.c, plan), { ...none, ...row.expect }, what);
  for (const x of plan.conflicts) {
    assert.equal([x.noun, x.field], [s.c.noun, s.c.field], what);
    assert.ok(
      x.message.startsWith(`${s.c.field} declares ${s.c.noun} "${x.key}", which already exists`),
      what,
    );
    assert.ok(x.message.includes(x.owner ? `belongs to ${x.owner}` : 'not created by realmforge'), what);
  }
  // Nothing the operator writes carries a mark of its own: the record alone says what is ours.
  for (const item of [...plan.create, ...plan.update.map((u) => u.desired)])
    if (s.legacy) assert.is(s.legacy.mark(owner).read(item), undefined, `${what}: unmarked`);
}

/** The transitions every section goes through, with the plan each must give. */
function transitions(s: Section): Row[] {
  const { c } = s;
  const key = (k: string) => c.key(s.want(k));
  const keys = (...ks: string[]) => ks.map(key);
  const w = (k: string) => s.want(k, 0);
  const ours = (k: string, v: 0 | 1 = 0) => s.have(k, v);
  const hand = (k: string, v: 0 | 1 = 0) => s.have(k, v);
  // The record lists the operator's keys; the declared ones it does not list yet are claimed.
  const recorded = (...ks: string[]) => keys(...ks);
  const claim = (...ks: string[]) => keys(...ks);
  // Links and role mappings are their key: they are added and removed, never updated.
  const updated = (...ks: string[]) =>
    c.write.mode === 'link' || c.write.mode === 'batch' ? [] : keys(...ks);
  const rows: Row[] = [
    {
      name: 'created: declared and absent',
      desired: [w('a')],
      live: [],
      expect: { create: keys('a'), claim: claim('a') },
    },
    {
      name: 'in sync: ours and equal',
      desired: [w('a')],
      live: [ours('a')],
      managed: recorded('a'),
      expect: {},
    },
    {
      name: 'drifted: ours and different',
      desired: [w('a')],
      live: [ours('a', 1)],
      managed: recorded('a'),
      expect: { update: updated('a') },
    },
    {
      name: 'pruned: ours, no longer declared',
      desired: [],
      live: [ours('a')],
      managed: recorded('a'),
      expect: { delete: keys('a') },
    },
    {
      name: 'conflict: hand-made and declared',
      desired: [w('a')],
      live: [hand('a')],
      expect: { conflicts: keys('a'), claim: claim('a') },
    },
    { name: 'hand-made, not declared: left alone', desired: [], live: [hand('a'), hand('b', 1)], expect: {} },
    {
      name: 'adopted: hand-made, declared, adoptExisting',
      desired: [w('a')],
      live: [hand('a', 1)],
      adopt: true,
      expect: { update: updated('a'), claim: claim('a') },
    },
    {
      name: 'all at once, the conflict declared last',
      desired: [w('a'), w('b'), w('c'), w('d')],
      live: [ours('a', 1), ours('b'), ours('gone'), hand('hand'), hand('d')],
      managed: recorded('a', 'b', 'gone'),
      expect: {
        create: keys('c'),
        update: updated('a'),
        delete: keys('gone'),
        conflicts: keys('d'),
        claim: claim('c', 'd'),
      },
    },
  ];
  if (s.legacy) {
    const marked = (o: string, k: string, v: 0 | 1 = 0) => s.legacy?.on(o, s.have(k, v)) ?? s.have(k, v);
    rows.push(
      {
        name: 'migrated: an earlier version marked it ours, declared, not in the record: kept, not claimed',
        desired: [w('a'), w('b')],
        live: [marked(owner, 'a'), marked(owner, 'b', 1)],
        expect: { update: updated('b') },
      },
      {
        name: 'migrated: an earlier version marked it ours, no longer declared: pruned',
        desired: [],
        live: [marked(owner, 'a')],
        expect: { delete: keys('a') },
      },
      {
        name: "conflict: another resource's (an earlier version's mark), declared",
        desired: [w('a')],
        live: [marked(other, 'a')],
        expect: { conflicts: keys('a'), claim: claim('a') },
      },
      {
        name: "another resource's, not declared: left alone",
        desired: [],
        live: [marked(other, 'a')],
        expect: {},
      },
      {
        name: "another resource's is never adopted",
        desired: [w('a')],
        live: [marked(other, 'a')],
        adopt: true,
        expect: { conflicts: keys('a'), claim: claim('a') },
      },
    );
    return rows;
  }
  const keycloak = keys('a');
  return [
    ...rows,
    {
      name: "Keycloak's own, declared: configured, not a conflict",
      desired: [w('a')],
      live: [hand('a', 1)],
      keycloak,
      expect: { update: updated('a'), claim: keys('a') },
    },
    {
      name: "Keycloak's own, not declared: left alone",
      desired: [],
      live: [hand('a', 1)],
      keycloak,
      expect: {},
    },
    {
      name: "Keycloak's own, recorded, no longer declared: pruned",
      desired: [],
      live: [hand('a')],
      keycloak,
      managed: keys('a'),
      expect: { delete: keys('a') },
    },
  ];
}

/** One test per section: its transitions, then its own rows. */
export function planTable(s: Section, own: Row[] = []): void {
  test(`${s.name}: (desired, live, ownership) -> plan`, () => {
    for (const row of [...transitions(s), ...own]) check(s, row);
  });
}
