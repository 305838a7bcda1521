import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';

type Crd = {
  spec: {
    names: { kind: string; shortNames: string[]; categories: string[] };
    scope: string;
    versions: {
      name: string;
      subresources: { status: object };
      additionalPrinterColumns: { name: string; jsonPath: string }[];
      schema: { openAPIV3Schema: any };
    }[];
  };
};
const read = (plural: string): Crd =>
  parse(
    readFileSync(
      new URL(`../../../dist-manifests/crds/${plural}.realmforge.dev.yaml`, import.meta.url),
      'utf8',
    ),
  );
const servers = read('identityservers');
const realms = read('identityrealms');
const clients = read('identityclients');
const spec = (crd: Crd) => crd.spec.versions[0].schema.openAPIV3Schema.properties.spec;

test('each CRD is namespaced realmforge.dev/v1 with the status subresource, short name and category', () => {
  for (const [crd, short] of [
    [servers, 'idsrv'],
    [realms, 'idrealm'],
    [clients, 'idclient'],
  ] as const) {
    assert.is(crd.spec.scope, 'Namespaced');
    assert.is(crd.spec.versions[0].name, 'v1');
    assert.equal(crd.spec.versions[0].subresources, { status: {} });
    assert.equal(crd.spec.names.shortNames, [short]);
    assert.equal(crd.spec.names.categories, ['realmforge']);
  }
});

test('printer columns show phase, Ready, Synced, version / realm / client ID and age', () => {
  const columns = (crd: Crd) => crd.spec.versions[0].additionalPrinterColumns.map((c) => c.name);
  assert.equal(columns(servers), ['Phase', 'Ready', 'Synced', 'Version', 'Age']);
  assert.equal(columns(realms), ['Phase', 'Ready', 'Synced', 'Realm', 'Age']);
  assert.equal(columns(clients).slice(0, 4), ['Phase', 'Ready', 'Synced', 'Client ID']);
  for (const [i, type] of [
    [1, 'Ready'],
    [2, 'Synced'],
  ] as const)
    assert.is(
      servers.spec.versions[0].additionalPrinterColumns[i].jsonPath,
      `.status.conditions[?(@.type=="${type}")].status`,
    );
});

test('the API server itself enforces the minimum Keycloak version with a CEL rule', () => {
  const image = spec(servers).properties.image;
  const rule = image['x-kubernetes-validations'][0];
  assert.match(rule.rule, 'self.tag.matches(');
  assert.match(rule.messageExpression, '25.0.0');
  assert.equal(image.required, ['tag']);
});

test('ingress host, redirect URIs, enums and probe minimums are enforced by the API server', () => {
  assert.match(spec(servers).properties.ingress['x-kubernetes-validations'][0].rule, 'has(self.host)');
  assert.is(spec(servers).properties.probes.properties.liveness.properties.periodSeconds.minimum, 1);
  assert.is(spec(servers).properties.probes.properties.startup.properties.initialDelaySeconds.minimum, 0);
  assert.equal(spec(clients).properties.type.enum, ['confidential', 'public', 'bearer-only']);
  assert.equal(spec(clients).properties.deletionPolicy.enum, ['Delete', 'Retain']);
  assert.equal(spec(clients).properties.realmRef.required, ['name']);
  assert.match(spec(clients).properties.redirectUris['x-kubernetes-validations'][0].rule, 'self.all(');
});

test('schemas are structural: no JSON Schema-only keywords, every status field a controller writes is declared', () => {
  const text = JSON.stringify([servers, realms, clients]);
  for (const keyword of ['$ref', '$schema', '$defs', '"const"', '"title"'])
    assert.not.ok(text.includes(keyword), keyword);
  const status = (crd: Crd) =>
    Object.keys(crd.spec.versions[0].schema.openAPIV3Schema.properties.status.properties);
  for (const field of [
    'phase',
    'conditions',
    'observedGeneration',
    'endpoints',
    'adminSecret',
    'readyReplicas',
    'version',
  ]) {
    assert.ok(status(servers).includes(field), field);
  }
  for (const field of ['realmId', 'issuer', 'authorizedNamespaces'])
    assert.ok(status(realms).includes(field), field);
  for (const field of ['clientUuid', 'credentialsSecret', 'endpoints'])
    assert.ok(status(clients).includes(field), field);
});

test.run();
