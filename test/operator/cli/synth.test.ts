import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAllDocuments } from 'yaml';
import { main } from '../../../src/operator/cli/main.ts';
import { assertGolden } from '../../helpers/golden.ts';
import { runCli } from '../../helpers/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'synth-'));
const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const realm = (spec: string) =>
  `apiVersion: realmforge.dev/v1\nkind: IdentityRealm\nmetadata:\n  name: r\n  namespace: team\nspec:\n  serverRef:\n    name: kc\n${spec}`;
const server = (spec: string, name = 'kc') =>
  `apiVersion: realmforge.dev/v1\nkind: IdentityServer\nmetadata:\n  name: ${name}\n  namespace: team\nspec:\n${spec}`;
const valid = '  image:\n    tag: "26.0.7"\n  database:\n    cluster: pg\n';

test('synth of the full example prints every object kind, pinned by a golden file', async () => {
  const r = await runCli(main, ['synth', 'examples/identityserver-full.yaml']);
  assert.is(r.code, 0, r.stderr);
  const kinds = parseAllDocuments(r.stdout).map((d) => (d.toJS() as { kind: string }).kind);
  assert.equal(kinds, ['Secret', 'Secret', 'Service', 'Service', 'Deployment', 'Ingress', 'Database']);
  assertGolden(r.stdout, new URL('golden/synth-identityserver-full.yaml', import.meta.url).pathname);
});

test('synth never prints a secret value', async () => {
  const r = await runCli(main, ['synth', 'examples/']);
  assert.is(r.code, 0, r.stderr);
  for (const doc of parseAllDocuments(r.stdout).map((d) => d.toJS())) {
    if (doc.kind !== 'Secret') continue;
    assert.equal(Object.values(doc.data), ['(redacted)', '(redacted)']);
  }
  assert.match(
    r.stderr,
    '3 IdentityServer(s) compiled into 12 objects; 5 IdentityRealm(s) and 2 IdentityClient(s) validated',
  );
});

test('the production realm example validates', async () => {
  const r = await runCli(main, ['synth', 'examples/identityrealm-production.yaml']);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stderr, '1 IdentityRealm(s) and 0 IdentityClient(s) validated');
});

test('synth of a directory is sorted and stable', async () => {
  const a = await runCli(main, ['synth', 'examples/']);
  const b = await runCli(main, [
    'synth',
    'examples/identityserver-minimal.yaml',
    'examples/identityserver-full.yaml',
  ]);
  assert.is(a.stdout, b.stdout);
});

const bad: [string, string, RegExp[]][] = [
  [
    'unknown field',
    server(`${valid}  replicaCount: 2\n`),
    [/IdentityServer team\/kc/, /spec: unknown field "replicaCount"/],
  ],
  [
    'Keycloak older than 25',
    server('  image:\n    tag: "24.1.0"\n  database:\n    cluster: pg\n'),
    [/IdentityServer team\/kc/, /spec\.image\.tag: Keycloak 24\.1\.0 is below the minimum version 25\.0\.0/],
  ],
  [
    'ingress without host',
    server(`${valid}  ingress:\n    enabled: true\n`),
    [/spec\.ingress\.host: a host is required when the Ingress is enabled/],
  ],
  [
    'not YAML',
    'apiVersion: realmforge.dev/v1\nkind: [IdentityServer\n  : :\n',
    [/is not valid YAML or JSON/, /:\d+: /],
  ],
  [
    'an unknown kind',
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n',
    [/kind ConfigMap is not a realmforge.dev resource/],
  ],
  [
    'missing database',
    server('  image:\n    tag: "26.0.7"\n'),
    [/spec.image and spec.database are required for a Keycloak the operator deploys/],
  ],
  [
    'realm sections breaking cross-field rules',
    realm(
      '  tokens:\n    refreshTokenMaxReuse: 2\n  localization:\n    supportedLocales: [en]\n    defaultLocale: de\n' +
        '  passwordPolicy:\n    length: 20\n    maxLength: 10\n    regexPattern: "a and b"\n' +
        '  securityDefenses:\n    bruteForceDetection:\n      maxTemporaryLockouts: 2\n' +
        '  login:\n    registrationEmailAsUsername: true\n    duplicateEmailsAllowed: true\n' +
        '  attributes:\n    realmforge.dev/owner: me\n',
    ),
    [
      /IdentityRealm team\/r is invalid/,
      /spec\.tokens\.refreshTokenMaxReuse needs spec\.tokens\.revokeRefreshToken: true/,
      /spec\.localization\.defaultLocale must be one of spec\.localization\.supportedLocales/,
      /spec\.passwordPolicy\.maxLength must be at least spec\.passwordPolicy\.length/,
      /spec\.passwordPolicy\.regexPattern may not contain ' and '/,
      /maxTemporaryLockouts needs permanentLockout: true/,
      /registrationEmailAsUsername and spec\.login\.duplicateEmailsAllowed cannot both be true/,
      /spec\.attributes may not use realmforge\.dev\/ keys/,
    ],
  ],
  [
    'realm sections with values out of range',
    realm('  otpPolicy:\n    digits: 7\n  webAuthnPolicy:\n    requireResidentKey: maybe\n'),
    [/spec\.otpPolicy\.digits/, /spec\.webAuthnPolicy\.requireResidentKey/],
  ],
];

for (const [what, text, expected] of bad) {
  test(`synth rejects ${what}: exit 2, the file, resource and field named, nothing on stdout`, async () => {
    const file = write(`${what.replaceAll(' ', '-')}.yaml`, text);
    const r = await runCli(main, ['synth', file]);
    assert.is(r.code, 2);
    assert.is(r.stdout, '');
    assert.match(r.stderr, file);
    for (const pattern of expected) assert.match(r.stderr, pattern);
    assert.not.match(r.stderr, /\n\s+at /, 'no stack trace');
  });
}

test('one bad document among good ones prints nothing at all', async () => {
  const good = write('good.yaml', server(valid, 'good'));
  const broken = write('broken.yaml', server(`${valid}  bogus: true\n`, 'broken'));
  const r = await runCli(main, ['synth', good, broken]);
  assert.is(r.code, 2);
  assert.is(r.stdout, '');
  assert.match(r.stderr, 'broken.yaml: IdentityServer team/broken is invalid');
});

test('usage errors: no command, no files, a missing file', async () => {
  assert.is((await runCli(main, [])).code, 2);
  const noFiles = await runCli(main, ['synth']);
  assert.is(noFiles.code, 2);
  assert.match(noFiles.stderr, 'synth needs at least one file or directory');
  const missing = await runCli(main, ['synth', join(dir, 'nope.yaml')]);
  assert.is(missing.code, 2);
  assert.match(missing.stderr, 'nope.yaml: no such file or directory');
});

test.run();
