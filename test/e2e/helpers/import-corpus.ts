// The corpus of the import differential (import-differential.ts), registered in test/e2e/import.test.ts's
// environment: Keycloak's default realm, the production example, a realm with every section the CRDs express, and
// realms of other e2e suites (the federation suite's LDAP and Kerberos providers against its directory fixture, the
// realm-flows suite's OTP browser flow), each made in Keycloak and exported from it.
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse as parseYaml } from 'yaml';
import type { Ldap } from '../../../scripts/testenv/ldap.ts';
import { carriedSections, everyRealmField } from '../../operator/keycloak/realm-everything.ts';
import { ldapProvider } from './federation-suite.ts';
import type { ImportSuite, importDifferential } from './import-differential.ts';
import { kerberosProvider } from './kerberos-federation.ts';
import { otpRealmSpec } from './otp-login.ts';

/** Registers the corpus tests (`s()` and `d` read when a test runs). */
export function corpusTests(s: () => ImportSuite & { ldap: Ldap }, d: ReturnType<typeof importDifferential>) {
  const { applyReady, exportOf, differential } = d;
  test("Keycloak's default realm imports as an empty spec and comes back equal", async () => {
    const { admin, made } = s();
    made.push('src-default');
    await admin('POST', '', { realm: 'src-default', enabled: true });
    const { diff, objects } = await differential('default', await exportOf('src-default'));
    assert.equal(
      objects.map((o) => o.kind),
      ['IdentityRealm'],
    );
    assert.equal(Object.keys(objects[0].spec).sort(), ['adoptExisting', 'serverRef']);
    assert.equal(diff, []);
  });

  test('the production example, exported from Keycloak, comes back equal', async () => {
    const { ns, made } = s();
    const example = parseYaml(readFileSync('examples/identityrealm-production.yaml', 'utf8'));
    example.metadata = { name: 'src-production', namespace: ns };
    example.spec.serverRef = { name: 'existing' };
    example.spec.deletionPolicy = 'Delete';
    made.push('src-production');
    await applyReady([
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'smtp-relay', namespace: ns },
        stringData: { password: 'relay' },
      },
      example,
    ]);
    const { diff } = await differential('production', await exportOf('src-production'));
    assert.equal(diff, []);
  });

  test('a realm with every section the CRDs express, and its clients, comes back equal', async () => {
    const { ns, made, major } = s();
    const example = parseYaml(readFileSync('examples/identityrealm-production.yaml', 'utf8'));
    const spec = {
      ...example.spec,
      ...everyRealmField,
      serverRef: { name: 'existing' },
      realmName: 'src-everything',
      clientAuthorizationGrants: [ns],
      deletionPolicy: 'Delete',
      ...carriedSections(major, 'everything'),
      realmDefaultClientScopes: { default: ['payroll.read'] },
    };
    delete spec.userFederation;
    made.push('src-everything');
    const client = (name: string, clientSpec: Record<string, unknown>) => ({
      apiVersion: 'realmforge.dev/v1',
      kind: 'IdentityClient',
      metadata: { name, namespace: ns },
      spec: { realmRef: { name: 'src-everything' }, ...clientSpec },
    });
    await applyReady([
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'smtp-relay', namespace: ns },
        stringData: { password: 'relay' },
      },
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'corp-idp', namespace: ns },
        stringData: { secret: 'corp' },
      },
      {
        apiVersion: 'realmforge.dev/v1',
        kind: 'IdentityRealm',
        metadata: { name: 'src-everything', namespace: ns },
        spec,
      },
      client('web', {
        redirectUris: ['https://web.example.test/*'],
        postLogoutRedirectUris: ['https://web.example.test/bye'],
        pkce: 'S256',
        serviceAccount: { enabled: true, realmRoles: ['employee'] },
        protocolMappers: [
          {
            name: 'audience',
            protocolMapper: 'oidc-audience-mapper',
            config: { 'included.client.audience': 'web', 'access.token.claim': 'true' },
          },
        ],
        roles: [{ name: 'reader', description: 'Reads' }],
        tokens: { accessTokenLifespan: 120 },
        authorization: {
          resources: [{ name: 'orders', uris: ['/orders/*'] }],
          policies: [{ name: 'employees', type: 'role', roles: [{ role: 'employee' }] }],
          permissions: [{ name: 'orders', type: 'resource', resources: ['orders'], policies: ['employees'] }],
        },
        optionalClientScopes: ['address'],
      }),
      client('spa', {
        type: 'public',
        redirectUris: ['https://spa.example.test/*'],
        webOrigins: ['+'],
        directAccessGrants: true,
      }),
      client('api', { type: 'bearer-only', standardFlow: false, description: 'The payroll API' }),
    ]);
    const { diff } = await differential('everything', await exportOf('src-everything'));
    assert.equal(diff, []);
  });

  /** Applies an IdentityRealm `name` on the existing server (deleted with the realm) and returns its export. */
  async function exportedRealm(
    name: string,
    spec: Record<string, unknown>,
    objects: Record<string, any>[] = [],
  ) {
    const { ns, made } = s();
    made.push(name);
    await applyReady([
      ...objects,
      {
        apiVersion: 'realmforge.dev/v1',
        kind: 'IdentityRealm',
        metadata: { name, namespace: ns },
        spec: { serverRef: { name: 'existing' }, deletionPolicy: 'Delete', ...spec },
      },
    ]);
    return exportOf(name);
  }

  test("the federation suite's realm (LDAP with a group mapper, Kerberos) comes back equal", async () => {
    const { ns, ldap } = s();
    const bind = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'ldap-bind', namespace: ns },
      stringData: { password: ldap.bindPassword },
    };
    const exp = await exportedRealm(
      'src-federation',
      {
        userFederation: {
          ldap: [ldapProvider(ldap)],
          kerberos: [kerberosProvider('HTTP/127.0.0.1@REALMFORGE.TEST')],
        },
      },
      [bind],
    );
    const { diff, objects } = await differential('federation', exp, (secret) =>
      secret.includes('-ldap-') ? ldap.bindPassword : undefined,
    );
    const federation = objects.find((o) => o.kind === 'IdentityRealm').spec.userFederation;
    assert.equal([federation.ldap[0].name, federation.kerberos[0].keytab], ['corp-ldap', 'sso']);
    assert.equal(diff, []);
  });

  test("the realm-flows suite's OTP browser flow (a bound flow with a sub-flow) comes back equal", async () => {
    const { diff } = await differential('otp-flows', await exportedRealm('src-otp-flows', otpRealmSpec(1)));
    assert.equal(diff, []);
  });
}
