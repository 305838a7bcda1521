import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ValidationError } from '../../../src/core/errors.ts';
import { createResourceValidator } from '../../../src/operator/compile/resource-validator.ts';
import { loadCrdSchemas } from '../../../src/operator/runtime/crd-schemas.ts';

const validate = createResourceValidator(loadCrdSchemas());
const meta = { name: 'x', namespace: 'team' };
const client = (spec: object) => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityClient',
  metadata: meta,
  spec: { realmRef: { name: 'r' }, ...spec },
});
const realm = (spec: object) => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityRealm',
  metadata: meta,
  spec: { serverRef: { name: 'kc' }, ...spec },
});
const srv = (spec: object) => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityServer',
  metadata: meta,
  spec: { image: { tag: '26.0.7' }, database: { cluster: 'pg' }, ...spec },
});

/** An IdentityServer with only spec.external (undefined: an empty spec). */
const ext = (external: object | undefined) => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityServer',
  metadata: meta,
  spec: external === undefined ? {} : { external },
});

function problems(data: unknown): string[] {
  try {
    validate(data, 'f.yaml');
    return [];
  } catch (e) {
    assert.instance(e, ValidationError);
    return [...(e as ValidationError).details];
  }
}

const kerberosCorp = {
  name: 'corp',
  kerberosRealm: 'CORP.EXAMPLE',
  serverPrincipal: 'HTTP/sso@CORP.EXAMPLE',
  keytab: 'sso',
};

const cases: [string, unknown, string | null][] = [
  [
    'a user profile attribute name Keycloak would refuse',
    realm({ userProfile: { attributes: [{ name: 'phone number' }] } }),
    'spec.userProfile.attributes.0.name: must match pattern "^[a-zA-Z0-9._-]+$"',
  ],
  [
    'an unknown unmanaged-attribute policy',
    realm({ userProfile: { unmanagedAttributePolicy: 'DISABLED' } }),
    'spec.userProfile.unmanagedAttributePolicy: must be one of "ENABLED", "ADMIN_VIEW", "ADMIN_EDIT"',
  ],
  [
    'a user profile permission for a role Keycloak does not know',
    realm({ userProfile: { attributes: [{ name: 'phone', permissions: { edit: ['manager'] } }] } }),
    'spec.userProfile.attributes.0.permissions.edit.0: must be one of "admin", "user"',
  ],
  [
    'a valid user profile',
    realm({
      userProfile: {
        unmanagedAttributePolicy: 'ADMIN_EDIT',
        attributes: [
          {
            name: 'phone.number_2-x',
            validations: { pattern: { pattern: '^[0-9]+$' } },
            permissions: { view: ['admin', 'user'], edit: ['admin'] },
            required: { roles: ['user'], scopes: ['profile'] },
            selector: { scopes: ['phone'] },
            group: 'contact',
            multivalued: true,
          },
        ],
        groups: [{ name: 'contact', displayHeader: 'Contact', annotations: { a: 'b' } }],
      },
    }),
    null,
  ],
  [
    'a valid client',
    client({ redirectUris: ['https://app.example.com/cb', 'https://app.example.com/*', '/rel', '+'] }),
    null,
  ],
  [
    'a malformed redirect URI',
    client({ redirectUris: ['not a url'] }),
    'spec.redirectUris: each entry must be an absolute URL',
  ],
  ['a relative rootUrl', client({ rootUrl: 'app.example.com' }), 'spec.rootUrl: must be an absolute URL'],
  [
    'an unknown client type',
    client({ type: 'secret' }),
    'spec.type: must be one of "confidential", "public", "bearer-only"',
  ],
  [
    'a public client with a service account',
    client({ type: 'public', serviceAccount: { enabled: true } }),
    'a public client cannot have a service account',
  ],
  [
    'a bearer-only client with redirects',
    client({ type: 'bearer-only', standardFlow: false, redirectUris: ['https://a.b/'] }),
    'a bearer-only client has no login flow',
  ],
  [
    'a client without realmRef.name',
    { ...client({}), spec: { realmRef: {} } },
    'spec.realmRef: missing required field "name"',
  ],
  [
    'a bad deletion policy',
    client({ deletionPolicy: 'Keep' }),
    'spec.deletionPolicy: must be one of "Delete", "Retain"',
  ],
  [
    'an inline SMTP password',
    realm({ smtp: { host: 'm', from: 'a@b.c', password: 'x' } }),
    'spec.smtp: unknown field "password"',
  ],
  ['the master realm', realm({ realmName: 'master' }), 'spec.realmName: spec.realmName may not be master'],
  [
    'a Kerberos user federation provider',
    realm({
      userFederation: {
        kerberos: [kerberosCorp],
      },
    }),
    null,
  ],
  [
    'a Kerberos provider without its keytab',
    realm({
      userFederation: {
        kerberos: [{ name: 'corp', kerberosRealm: 'CORP.EXAMPLE', serverPrincipal: 'HTTP/x' }],
      },
    }),
    'keytab',
  ],
  [
    'a weekly cache policy without its day',
    realm({
      userFederation: {
        kerberos: [
          { ...kerberosCorp, cachePolicy: { policy: 'EVICT_WEEKLY', evictionHour: 1, evictionMinute: 0 } },
        ],
      },
    }),
    'EVICT_WEEKLY needs evictionDay',
  ],
  [
    'LDAP using Kerberos for passwords without Kerberos settings',
    realm({
      userFederation: {
        ldap: [
          {
            name: 'l',
            connectionUrl: 'ldap://x',
            usersDn: 'ou=p',
            useKerberosForPasswordAuthentication: true,
          },
        ],
      },
    }),
    'useKerberosForPasswordAuthentication needs kerberos',
  ],
  [
    'a deployed server with a keytab Secret and a krb5.conf',
    srv({
      kerberos: {
        keytabs: [{ name: 'sso', secretRef: { name: 'k', key: 'keytab' } }],
        krb5ConfigMapRef: { name: 'krb5', key: 'krb5.conf' },
      },
    }),
    null,
  ],
  [
    'a deployed server with a keytab path',
    srv({ kerberos: { keytabs: [{ name: 'sso', path: '/etc/krb5.keytab' }] } }),
    'a Keycloak the operator deploys takes keytabs from Secrets',
  ],
  [
    'an external server with a keytab path',
    {
      ...ext(undefined),
      spec: {
        external: { url: 'https://kc', credentialsSecret: 'c' },
        kerberos: { keytabs: [{ name: 'sso', path: '/k' }] },
      },
    },
    null,
  ],
  [
    'an external server with a keytab Secret',
    {
      ...ext(undefined),
      spec: {
        external: { url: 'https://kc', credentialsSecret: 'c' },
        kerberos: { keytabs: [{ name: 'sso', secretRef: { name: 'k', key: 'keytab' } }] },
      },
    },
    'one with spec.external takes paths on its host',
  ],
  [
    'an external server with a krb5.conf ConfigMap',
    {
      ...ext(undefined),
      spec: {
        external: { url: 'https://kc', credentialsSecret: 'c' },
        kerberos: { krb5ConfigMapRef: { name: 'krb5', key: 'krb5.conf' } },
      },
    },
    'spec.kerberos.krb5ConfigMapRef configures a Keycloak the operator deploys',
  ],
  [
    'a keytab with both a Secret and a path',
    srv({ kerberos: { keytabs: [{ name: 'sso', path: '/k', secretRef: { name: 'k', key: 'keytab' } }] } }),
    'each keytab needs exactly one of secretRef',
  ],
  [
    'a signing key on a social provider',
    realm({
      identityProviders: [{ alias: 'gh', providerId: 'github', signingKeyRef: { name: 's', key: 'k' } }],
    }),
    'signingKeyRef is for oidc, keycloak-oidc and saml providers',
  ],
  [
    'a signing key on an OIDC provider',
    realm({
      identityProviders: [{ alias: 'up', providerId: 'oidc', signingKeyRef: { name: 's', key: 'k' } }],
    }),
    null,
  ],
  [
    'a grant that is not a namespace name',
    realm({ clientAuthorizationGrants: ['Team_A'] }),
    'spec.clientAuthorizationGrants.0: must match pattern',
  ],
  [
    'a negative probe period',
    srv({ probes: { liveness: { periodSeconds: 0 } } }),
    'spec.probes.liveness.periodSeconds: must be >= 1',
  ],
  [
    'an operator-owned option',
    srv({ additionalOptions: [{ name: 'db-url-host', value: 'x' }] }),
    'may not set an option the operator owns',
  ],
  [
    "the realms cache size, which replaces the operator's",
    srv({ additionalOptions: [{ name: 'cache-embedded-realms-max-count', value: '200000' }] }),
    null,
  ],
  [
    'an operator-owned cache option',
    srv({ additionalOptions: [{ name: 'cache-stack', value: 'jdbc-ping' }] }),
    'owns (db, db-url-host, db-url-port, db-url-database, db-username, db-password, http-enabled',
  ],
  [
    'an option with value and secret',
    srv({ additionalOptions: [{ name: 'log-level', value: 'x', secret: { name: 's', key: 'k' } }] }),
    'exactly one of value or secret',
  ],
  ['Keycloak 25.0.0', srv({ image: { tag: '25.0.0' } }), null],
  ['Keycloak 100.1.0', srv({ image: { tag: '100.1.0' } }), null],
  ['Keycloak 9.0.0', srv({ image: { tag: '9.0.0' } }), 'below the minimum version 25.0.0'],
  ['a non-version tag', srv({ image: { tag: 'latest' } }), 'spec.image.tag: must match pattern'],
  ['a pre-release of 25.0.0', srv({ image: { tag: '25.0.0-rc1' } }), 'is a pre-release of 25.0.0'],
  ['a pre-release of 25.0.1', srv({ image: { tag: '25.0.1-rc1' } }), null],
  [
    'an existing Keycloak (spec.external) alone',
    ext({
      url: 'https://kc.example.com/auth',
      credentialsSecret: 'kc-admin',
      caConfigMapRef: { name: 'ca', key: 'ca.crt' },
    }),
    null,
  ],
  [
    'an existing Keycloak with an image',
    {
      ...ext({ url: 'https://kc.example.com', credentialsSecret: 's' }),
      spec: { external: { url: 'https://kc.example.com', credentialsSecret: 's' }, image: { tag: '26.0.7' } },
    },
    'spec.external points at a Keycloak the operator does not deploy: remove spec.image',
  ],
  [
    'an existing Keycloak with replicas',
    { ...ext({}), spec: { external: { url: 'http://kc:8080', credentialsSecret: 's' }, replicas: 2 } },
    'remove spec.image, spec.database, spec.replicas',
  ],
  [
    'a server with neither spec.external nor image and database',
    ext(undefined),
    'spec.image and spec.database are required',
  ],
  ['an existing Keycloak without credentials', ext({ url: 'https://kc.example.com' }), 'credentialsSecret'],
  [
    'an existing Keycloak with a URL that is not http(s)',
    ext({ url: 'kc.example.com', credentialsSecret: 's' }),
    'spec.external.url: must match pattern',
  ],
  [
    'an existing Keycloak with two CAs',
    ext({
      url: 'https://kc',
      credentialsSecret: 's',
      caSecretRef: { name: 'a', key: 'k' },
      caConfigMapRef: { name: 'b', key: 'k' },
    }),
    'takes one CA',
  ],
  [
    'a CA for an http URL',
    ext({ url: 'http://kc', credentialsSecret: 's', caSecretRef: { name: 'a', key: 'k' } }),
    'a CA is only used for an https url',
  ],
  [
    'an IdentityRealm named master without realmName',
    { ...realm({}), metadata: { name: 'master', namespace: 'team' } },
    '(root): an IdentityRealm named master',
  ],
  [
    'an IdentityRealm named master with another realmName',
    { ...realm({ realmName: 'm' }), metadata: { name: 'master' } },
    null,
  ],
  // Immutability rules (self == oldSelf) compare with the stored object: synth has none, so they pass here.
  ['a realm with realmName and serverRef', realm({ realmName: 'apps' }), null],
];

for (const [what, data, expected] of cases) {
  test(`${what} ${expected ? 'is rejected' : 'is accepted'}`, () => {
    const found = problems(data);
    if (expected === null) assert.equal(found, []);
    else
      assert.ok(
        found.some((p) => p.includes(expected)),
        `expected "${expected}" in ${JSON.stringify(found)}`,
      );
  });
}

test('defaults from the schema are applied, as the API server would', () => {
  const resource = validate(client({}), 'f.yaml') as unknown as { spec: Record<string, unknown> };
  assert.is(resource.spec.type, 'confidential');
  assert.is(resource.spec.deletionPolicy, 'Delete');
  assert.is(resource.spec.standardFlow, true);
});

test('identity fields carry immutability rules for the API server', () => {
  const schemas = loadCrdSchemas();
  const rules = (file: string, at: (schema: Record<string, any>) => { rule: string; message?: string }[]) =>
    at(schemas[file] as Record<string, any>).filter((r) => r.rule.includes('oldSelf'));
  const realmRules = rules('identityrealm.schema.json', (s) => s.properties.spec['x-kubernetes-validations']);
  assert.equal(
    realmRules.map((r) => r.message?.split(' ')[0]),
    ['spec.realmName', 'spec.serverRef'],
  );
  assert.ok(realmRules.every((r) => r.message?.includes('create a new IdentityRealm')));
  const clientRules = rules(
    'identityclient.schema.json',
    (s) => s.properties.spec['x-kubernetes-validations'],
  );
  assert.equal(
    clientRules.map((r) => r.message?.split(' ')[0]),
    ['spec.clientId', 'spec.secretName', 'spec.protocol', 'spec.realmRef'],
  );
  const dbRules = rules(
    'identityserver.schema.json',
    (s) => s.properties.spec.properties.database['x-kubernetes-validations'],
  );
  assert.is(dbRules.length, 1);
});

test.run();
