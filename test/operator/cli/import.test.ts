// `realmforge import` from a file: YAML on stdout only when the whole import succeeded, the report on stderr,
// secret values only with --secrets, --strict failing on what cannot be expressed, and bad input refused with the
// JSON path, exit code 2, nothing on stdout and no stack trace. The live read is proved by test/e2e/import.test.ts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAllDocuments } from 'yaml';
import { main } from '../../../src/operator/cli/main.ts';
import { runCli } from '../../helpers/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'import-'));
const write = (name: string, value: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
};
const shop = {
  realm: 'shop',
  displayName: 'Shop',
  smtpServer: {
    host: 'smtp.example.com',
    from: 'a@example.com',
    auth: 'true',
    user: 'mailer',
    password: 'hunter2',
  },
  clients: [{ clientId: 'web', redirectUris: ['https://web.example/*'], secret: '**********' }],
  users: [{ username: 'alice' }],
};
const run = (file: string, ...flags: string[]) =>
  runCli(main, ['import', file, '--namespace', 'apps', ...flags]);

test('a realm export becomes an IdentityRealm and its IdentityClients; the report names what is left out', async () => {
  const r = await run(write('shop.json', shop));
  assert.is(r.code, 0, r.stderr);
  const docs = parseAllDocuments(r.stdout).map((d) => d.toJS());
  assert.equal(
    docs.map((d) => `${d.kind} ${d.metadata.namespace}/${d.metadata.name}`),
    ['IdentityRealm apps/shop', 'IdentityClient apps/web'],
  );
  assert.equal(docs[0].spec.adoptExisting, true);
  assert.equal(docs[0].spec.clientAuthorizationGrants, ['apps']);
  assert.equal(docs[0].spec.smtp.passwordSecretRef, { name: 'shop-smtp', key: 'password' });
  assert.equal(docs[1].spec.realmRef, { name: 'shop', namespace: 'apps' });
  assert.match(r.stderr, '  users: users are not managed by the CRDs');
  assert.match(
    r.stderr,
    'create these Secrets before applying (or run again with --secrets): apps/shop-smtp key password',
  );
});

test('secret values reach stdout only with --secrets', async () => {
  const file = write('shop.json', shop);
  const plain = await run(file);
  assert.not.match(plain.stdout, 'hunter2');
  assert.not.match(plain.stderr, 'hunter2');
  const withSecrets = await run(file, '--secrets');
  const secret = parseAllDocuments(withSecrets.stdout).map((d) => d.toJS())[0];
  assert.equal(secret, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'shop-smtp', namespace: 'apps' },
    type: 'Opaque',
    stringData: { password: 'hunter2' },
  });
});

test("a client's certificate Secret goes in the clients' namespace, the realm's Secrets in the realm's", async () => {
  const withCertificate = {
    ...shop,
    clients: [
      {
        clientId: 'api',
        clientAuthenticatorType: 'client-jwt',
        attributes: { 'jwt.credential.certificate': 'MIIBcert', 'use.jwks.url': 'false' },
      },
    ],
  };
  const r = await run(write('cert.json', withCertificate), '--realm-namespace', 'identity', '--secrets');
  assert.is(r.code, 0, r.stderr);
  const docs = parseAllDocuments(r.stdout).map((d) => d.toJS());
  const secrets = docs
    .filter((d) => d.kind === 'Secret')
    .map((d) => `${d.metadata.namespace}/${d.metadata.name}`);
  assert.equal(secrets, ['identity/shop-smtp', 'apps/shop-api-credential']);
  const api = docs.find((d) => d.kind === 'IdentityClient');
  assert.equal(api.spec.authentication, {
    method: 'client-jwt',
    certificateSecretRef: { name: 'shop-api-credential', key: 'certificate' },
  });
  assert.match(
    docs[1].stringData.certificate,
    '-----BEGIN CERTIFICATE-----\nMIIBcert\n-----END CERTIFICATE-----',
  );
});

test('--strict fails on anything the CRDs cannot express, printing nothing', async () => {
  const r = await run(write('shop.json', shop), '--strict');
  assert.is(r.code, 2);
  assert.is(r.stdout, '');
  assert.match(r.stderr, '--strict: 1 item(s) above cannot be expressed');
  const clean = await run(write('clean.json', { realm: 'clean', displayName: 'Clean' }), '--strict');
  assert.is(clean.code, 0, clean.stderr);
});

const bad: [string, unknown, string][] = [
  ['malformed JSON', '{"realm": "x",', 'not JSON'],
  ['not an object', '[1, 2]', 'holds 2 realms'],
  ['no realm name', { displayName: 'x' }, 'realm: missing'],
  ['a realm name Keycloak refuses', { realm: 'my realm/x' }, 'realm: "my realm/x" is not a realm name'],
  ['master', { realm: 'master' }, 'realm: master is Keycloak'],
  ['an unknown section', { realm: 'x', flows: [] }, 'flows: not a section of a Keycloak realm export'],
  [
    'a section of the wrong type',
    { realm: 'x', clients: { web: {} } },
    'clients: expected a list, found object',
  ],
  [
    'an item without its key',
    { realm: 'x', clients: [{ name: 'web' }] },
    'clients[0]: expected an object with a "clientId"',
  ],
];
for (const [what, input, message] of bad) {
  test(`bad input (${what}): exit code 2, the path named, nothing on stdout, no stack trace`, async () => {
    const r = await run(write('bad.json', input));
    assert.is(r.code, 2, r.stderr);
    assert.is(r.stdout, '');
    assert.match(r.stderr, message);
    assert.not.match(r.stderr, /\n\s+at /);
  });
}

test('usage: --namespace is needed, one source only, credentials only with --keycloak-url', async () => {
  const file = write('shop.json', shop);
  for (const [args, message] of [
    [['import', file], 'import needs --namespace'],
    [['import', file, '--namespace', 'apps', '--keycloak-url', 'http://kc'], 'import reads one realm export'],
    [['import', '--namespace', 'apps', '--keycloak-url', 'http://kc'], '--keycloak-url needs --realm'],
    [
      ['import', '--namespace', 'apps', '--keycloak-url', 'http://kc', '--realm', 'x'],
      '--keycloak-url needs the admin credentials',
    ],
    [
      ['import', file, '--namespace', 'apps', '--credentials', 'c.yaml'],
      '--credentials and --credentials-secret go with --keycloak-url',
    ],
    [['import', file, '--namespace', 'Apps'], '--namespace "Apps" is not a Kubernetes name'],
  ] as const) {
    const r = await runCli(main, [...args]);
    assert.is(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.is(r.stdout, '');
    assert.match(r.stderr, message);
  }
});

test.run();
