// The plans of a realm's and a client's own fields (planFields: pure, no Keycloak) as tables: a declared field is
// set, one in sync sends nothing, a hand edit is reverted, a field the spec stops setting goes back to Keycloak's
// default, a field never declared is left as a person set it; and the late-ledger hold: the realm or client
// update sent first keeps each changing late ledger at its live value, the whole body is recorded afterwards.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clientFields } from '../../../src/operator/keycloak/collections/client-fields.ts';
import { holdLateLedgers } from '../../../src/operator/keycloak/collections/late-ledgers.ts';
import {
  declaredBefore,
  type FieldRules,
  managedFieldsAttribute as mf,
  planFields,
} from '../../../src/operator/keycloak/collections/managed-fields.ts';
import { messagesLedger } from '../../../src/operator/keycloak/collections/messages.ts';
import { realmFields } from '../../../src/operator/keycloak/collections/realm-fields.ts';
import { openRecord, sealRecord } from '../../../src/operator/keycloak/collections/record.ts';

type Obj = Record<string, unknown>;
type Row = { name: string; desired: Obj; live: Obj; collections?: string[]; drift: string[]; sent?: Obj };

/** A live object whose ownership record lists `fields`, as the sections read it (realm and client attributes are
 * strings). */
const recording = (fields: string[], rest: Obj = {}, attributes: Obj = {}): Obj =>
  openRecord(sealRecord({ ...rest, attributes: { ...attributes, [mf]: fields.join(',') } }));

/** The value a body sends at a field path (`field` or `map/key`). */
function sentAt(body: Obj, path: string): unknown {
  const slash = path.indexOf('/');
  return slash < 0 ? body[path] : (body[path.slice(0, slash)] as Obj | undefined)?.[path.slice(slash + 1)];
}

function fieldTable(rules: FieldRules, rows: Row[]): void {
  test(`${rules.noun} fields: (desired, live, field list) -> plan`, () => {
    for (const row of rows) {
      const plan = planFields(row.desired, row.live, rules, row.collections);
      assert.equal(plan.drift, row.drift, row.name);
      if (!row.drift.length) assert.equal(plan.body, {}, `${row.name}: nothing sent`);
      for (const [path, value] of Object.entries(row.sent ?? {}))
        assert.equal(sentAt(plan.body, path), value, `${row.name}: ${path}`);
    }
  });
}

const lifespan = 'accessTokenLifespan';
fieldTable(realmFields, [
  {
    name: 'set: declared, at the default before',
    desired: { [lifespan]: 120 },
    live: { [lifespan]: 300, attributes: {} },
    drift: [lifespan, mf],
    sent: { [lifespan]: 120, [`attributes/${mf}`]: lifespan },
  },
  {
    name: 'in sync',
    desired: { [lifespan]: 120 },
    live: recording([lifespan], { [lifespan]: 120 }),
    drift: [],
  },
  {
    name: 'drifted: a hand edit is reverted',
    desired: { [lifespan]: 120 },
    live: recording([lifespan], { [lifespan]: 999 }),
    drift: [lifespan],
    sent: { [lifespan]: 120 },
  },
  {
    name: "pruned: no longer declared, back at Keycloak's default",
    desired: {},
    live: recording([lifespan], { [lifespan]: 120 }),
    drift: [lifespan, mf],
    sent: { [lifespan]: 300, [`attributes/${mf}`]: '' },
  },
  {
    name: 'hand-set, never declared: left alone',
    desired: {},
    live: { [lifespan]: 999, attributes: {} },
    drift: [],
  },
  {
    name: 'pruned attribute: sent empty (Keycloak removes it)',
    desired: {},
    live: recording(['attributes/team'], {}, { team: 'x', other: 'by hand' }),
    drift: ['attributes/team', mf],
    sent: { 'attributes/team': '', 'attributes/other': undefined },
  },
  {
    name: 'a field Keycloak leaves out holds its default',
    desired: { eventsExpiration: 0 },
    live: recording(['eventsExpiration']),
    drift: [],
  },
  {
    name: 'lists compared as sets',
    desired: { supportedLocales: ['de', 'en'] },
    live: recording(['supportedLocales'], { supportedLocales: ['en', 'de'] }),
    drift: [],
  },
  {
    name: 'the password policy compared parsed',
    desired: { passwordPolicy: 'length(8) and digits(1)' },
    live: recording(['passwordPolicy'], { passwordPolicy: 'digits(1) and length(8)' }),
    drift: [],
  },
  {
    name: 'the SMTP password, never returned, is not compared',
    desired: { smtpServer: { host: 'mail', password: 'secret' } },
    live: recording(['smtpServer/host', 'smtpServer/password'], {
      smtpServer: { host: 'mail', password: '**********' },
    }),
    drift: [],
  },
  {
    name: 'an update carries the live value of a field Keycloak would reset',
    desired: { [lifespan]: 120 },
    live: recording([lifespan], { [lifespan]: 300, oauth2DeviceCodeLifespan: 900 }),
    drift: [lifespan],
    sent: { oauth2DeviceCodeLifespan: 900 },
  },
  {
    name: 'a declared collection is recorded as +name',
    desired: {},
    live: { attributes: {} },
    collections: ['roles'],
    drift: [mf],
    sent: { [`attributes/${mf}`]: '+roles' },
  },
  { name: 'and then steady', desired: {}, live: recording(['+roles']), collections: ['roles'], drift: [] },
]);

const pkce = 'attributes/pkce.code.challenge.method';
fieldTable(clientFields, [
  {
    name: 'set: a declared attribute',
    desired: { attributes: { 'pkce.code.challenge.method': 'S256' } },
    live: { attributes: {} },
    drift: [pkce, mf],
    sent: { [pkce]: 'S256' },
  },
  {
    name: 'redirect URIs compared as a set',
    desired: { redirectUris: ['https://b', 'https://a'] },
    live: recording(['redirectUris'], { redirectUris: ['https://a', 'https://b'] }),
    drift: [],
  },
  {
    name: 'pruned: redirect URIs and an attribute no longer declared',
    desired: {},
    live: recording(
      ['redirectUris', pkce],
      { redirectUris: ['https://a'] },
      { 'pkce.code.challenge.method': 'S256' },
    ),
    drift: ['redirectUris', pkce, mf],
    sent: { redirectUris: [], [pkce]: '' },
  },
  {
    name: 'hand-made attribute, never declared: left alone',
    desired: { enabled: true },
    live: recording(['enabled'], { enabled: true }, { 'by.hand': 'x' }),
    drift: [],
  },
]);

test('declaredBefore reads the +name entries of the field list', () => {
  assert.ok(declaredBefore(recording(['+roles', lifespan]), realmFields, 'roles'));
  assert.not.ok(declaredBefore(recording([lifespan]), realmFields, 'roles'));
});

test('late ledgers: the first update holds a changing ledger at its live value; the whole body comes after', () => {
  const ledgerPath = `attributes/${messagesLedger}`;
  const cases: { name: string; desired: Obj; live: Obj; first: string[]; held: string[] }[] = [
    {
      name: 'steady: nothing held, nothing sent',
      desired: { attributes: { [messagesLedger]: 'en/a' } },
      live: recording([ledgerPath], {}, { [messagesLedger]: 'en/a' }),
      first: [],
      held: [],
    },
    {
      name: 'only the ledger changes: nothing sent first',
      desired: { attributes: { [messagesLedger]: 'en/a' } },
      live: recording([ledgerPath], {}, { [messagesLedger]: 'en/a,en/b' }),
      first: [],
      held: [messagesLedger],
    },
    {
      name: 'a field and the ledger change: the field first, the ledger held',
      desired: { [lifespan]: 120, attributes: { [messagesLedger]: 'en/a,en/b' } },
      live: recording([lifespan, ledgerPath], { [lifespan]: 300 }, { [messagesLedger]: 'en/a' }),
      first: [lifespan],
      held: [messagesLedger],
    },
  ];
  for (const c of cases) {
    const plan = planFields(c.desired, c.live, realmFields);
    const { first, held } = holdLateLedgers(plan, c.live, [messagesLedger]);
    assert.equal(first.drift, c.first, c.name);
    assert.equal(held, c.held, c.name);
    const live = (c.live.attributes as Obj)[messagesLedger];
    if (held.length) {
      assert.is(sentAt(first.body, ledgerPath), live, `${c.name}: held at its live value`);
      assert.is(sentAt(plan.body, ledgerPath), sentAt(c.desired, ledgerPath), `${c.name}: recorded after`);
    } else assert.is(first, plan, `${c.name}: the plan as is`);
  }
});

test.run();
