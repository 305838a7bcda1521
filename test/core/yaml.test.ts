import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse, parseAllDocuments } from 'yaml';
import { toYaml, toYamlDocuments } from '../../src/core/yaml.ts';
import { compileIdentityServer } from '../../src/operator/compile/identity-server.ts';
import { compileCrds, compileOperatorInstall } from '../../src/operator/compile/install.ts';
import { loadCrdSchemas } from '../../src/operator/runtime/crd-schemas.ts';
import { inputs, server } from '../operator/compile/fixtures.ts';

const tricky = [
  'true',
  'False',
  'yes',
  'no',
  'on',
  'null',
  '~',
  'y',
  '',
  ' ',
  '0',
  '08',
  '1e3',
  '26.0.7',
  '0x1F',
  '.inf',
  '-',
  '- x',
  'a: b',
  'a #b',
  '#c',
  '@x',
  '`x',
  '!tag',
  '&a',
  '*a',
  '%x',
  '|',
  '>',
  '"q"',
  "'q'",
  '[a]',
  '{a}',
  'x\ny',
  'tab\there',
  'ünïcode',
  '\u0000',
  'http://x:8080/',
  "self.tag.matches('^(2[5-9])[.]')",
  'a,b',
  '?',
  'key:',
];

test('every tricky string round-trips through a real YAML parser, as a value and as a key', () => {
  for (const s of tricky) {
    assert.equal(parse(toYaml({ v: s, list: [s], [s]: 1 })), { v: s, list: [s], [s]: 1 }, JSON.stringify(s));
  }
});

test('numbers, booleans, null, empty containers and nesting round-trip', () => {
  const value = {
    a: 1,
    b: -2.5,
    c: true,
    d: null,
    e: {},
    f: [],
    g: [[1, [2]], { h: [{}] }],
    i: [{ j: { k: [] } }],
  };
  assert.equal(parse(toYaml(value)), value);
});

test('undefined fields are left out, as in JSON', () => {
  assert.is(toYaml({ a: undefined, b: 1 }), 'b: 1\n');
});

test('every compiled manifest round-trips', () => {
  const objects = [
    ...compileIdentityServer(
      server({ replicas: 2, ingress: { enabled: true, host: 'h.example', tlsSecretName: 't' } }),
      inputs,
    ),
    ...compileCrds(loadCrdSchemas()),
    ...compileOperatorInstall(),
  ];
  const parsed = parseAllDocuments(toYamlDocuments(objects)).map((d) => d.toJS());
  assert.equal(parsed, JSON.parse(JSON.stringify(objects)));
});

test('block style reads like kubectl output', () => {
  assert.is(
    toYaml({ kind: 'Service', spec: { ports: [{ name: 'http', port: 8080 }], selector: { app: 'kc' } } }),
    'kind: Service\nspec:\n  ports:\n    - name: http\n      port: 8080\n  selector:\n    app: kc\n',
  );
});

test.run();
