// Derived names fit Kubernetes' limits whatever the input: a valid value is kept as it is, anything else becomes a
// readable prefix and a stable hash, with the suffix that tells derived names apart always kept.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityServer } from '../../../generated/types/crds/identityserver.ts';
import { boundedText, dnsLabelName, labelValue, objectName } from '../../../src/operator/compile/names.ts';
import { hashKeySecretName } from '../../../src/operator/controllers/identity-realm/server-hash-key.ts';

const long = 'a'.repeat(253);
const dotted = `team.${'b'.repeat(240)}.kc`;
const label = /^(?=.{0,63}$)([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;
const dns1035 = /^(?=.{1,63}$)[a-z]([-a-z0-9]*[a-z0-9])?$/;
const subdomain = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

type Row = { name: string; derive: (text: string) => string; valid: RegExp; input: string; want?: RegExp };
const rows: Row[] = [
  { name: 'short label kept', derive: labelValue, valid: label, input: 'kc', want: /^kc$/ },
  { name: '63-char label kept', derive: labelValue, valid: label, input: 'x'.repeat(63), want: /^x{63}$/ },
  {
    name: '64-char label hashed',
    derive: labelValue,
    valid: label,
    input: 'x'.repeat(64),
    want: /^x{54}-[0-9a-f]{8}$/,
  },
  {
    name: 'ns.name label',
    derive: labelValue,
    valid: label,
    input: `${'n'.repeat(63)}.${long}`,
    want: /^n{54}-/,
  },
  { name: 'label of symbols', derive: labelValue, valid: label, input: '__/..', want: /^[0-9a-f]{8}$/ },
  { name: 'Service kept', derive: dnsLabelName, valid: dns1035, input: 'kc', want: /^kc$/ },
  {
    name: 'Service of a long name',
    derive: dnsLabelName,
    valid: dns1035,
    input: long,
    want: /^a{54}-[0-9a-f]{8}$/,
  },
  {
    name: 'Service of a dotted name',
    derive: dnsLabelName,
    valid: dns1035,
    input: 'a.b',
    want: /^a-b-[0-9a-f]{8}$/,
  },
  {
    name: 'Service of a digit name',
    derive: dnsLabelName,
    valid: dns1035,
    input: '1kc',
    want: /^kc-[0-9a-f]{8}$/,
  },
  {
    name: 'Service of digits only',
    derive: dnsLabelName,
    valid: dns1035,
    input: '123',
    want: /^x[0-9a-f]{8}$/,
  },
  {
    name: 'discovery Service suffix kept',
    derive: (t) => dnsLabelName(t, '-discovery'),
    valid: dns1035,
    input: 'x'.repeat(60),
    want: /^x{44}-[0-9a-f]{8}-discovery$/,
  },
  {
    name: 'Secret kept',
    derive: (t) => objectName(t, '-credentials'),
    valid: subdomain,
    input: 'portal',
    want: /^portal-credentials$/,
  },
  {
    name: 'Secret of a 253-char name',
    derive: (t) => objectName(t, '-credentials'),
    valid: subdomain,
    input: long,
    want: /^a+-[0-9a-f]{8}-credentials$/,
  },
  {
    name: 'Secret of a dotted name kept',
    derive: (t) => objectName(t, '-admin-credentials'),
    valid: subdomain,
    input: 'team.kc',
    want: /^team\.kc-admin-credentials$/,
  },
  {
    name: 'Secret of a long dotted name',
    derive: (t) => objectName(t, '-x'),
    valid: subdomain,
    input: dotted,
  },
  { name: 'Keycloak text kept', derive: (t) => boundedText(t, 255), valid: /^.{1,255}$/, input: long },
  {
    name: 'Keycloak text bounded',
    derive: (t) => boundedText(t, 255),
    valid: /^.{255}$/,
    input: `realmforge-operator-${'n'.repeat(63)}-${long}`,
  },
];

for (const row of rows) {
  test(row.name, () => {
    const out = row.derive(row.input);
    assert.ok(row.valid.test(out), `${out} (${out.length})`);
    if (row.want) assert.match(out, row.want);
    assert.is(row.derive(row.input), out, 'stable');
  });
}

test('two long names that share their prefix stay apart', () => {
  const a = `${'p'.repeat(70)}-one`;
  const b = `${'p'.repeat(70)}-two`;
  assert.is.not(labelValue(a), labelValue(b));
  assert.is.not(dnsLabelName(a), dnsLabelName(b));
  assert.is.not(dnsLabelName(long), dnsLabelName(long, '-discovery'));
});

test.run();

test("a server's hash key Secret is named within the limit whatever the server's name", () => {
  const server = (name: string) => ({ metadata: { name, namespace: 'ns' } }) as IdentityServer;
  assert.is(hashKeySecretName(server('kc')), 'kc-hash-key');
  const named = hashKeySecretName(server(long));
  assert.ok(subdomain.test(named), named);
  assert.ok(named.endsWith('-hash-key'), named);
});
