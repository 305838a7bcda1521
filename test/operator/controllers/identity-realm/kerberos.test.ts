// Kerberos user federation against the in-memory Keycloak: the provider's keytab is one the IdentityServer
// declares (its path resolved by the operator), the provider is read back equal, reverted, pruned, and a hand-made
// one is left alone; an LDAP provider's Kerberos settings come and go with the spec.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { keytabMountPath } from '../../../../src/operator/compile/kerberos-keytabs.ts';
import { keycloakWorld, readyServer, statusOf } from '../keycloak-world.ts';
import { corp, directory, ldap, reconcile, secret, state } from './federation-world.ts';

const kerberos = {
  name: 'corp-kerberos',
  kerberosRealm: 'CORP.TEST',
  serverPrincipal: 'HTTP/sso.corp.test@CORP.TEST',
  keytab: 'sso',
  allowPasswordAuthentication: true,
};
const keytabs = [{ name: 'sso', secretRef: { name: 'sso-keytab', key: 'keytab' } }];

function world(spec: Record<string, unknown>, serverKerberos: Record<string, unknown> = { keytabs }) {
  const w = keycloakWorld([corp(spec), secret('ldap', 'bind-pw')], readyServer({ kerberos: serverKerberos }));
  w.keycloak.world.directories.push({ ...directory });
  return w;
}
const component = (w: ReturnType<typeof world>, name = 'corp-kerberos') =>
  state(w).components.find((c) => c.name === name);

test('a Kerberos provider is created with the mounted keytab path; steady, reverted, pruned', async () => {
  const w = world({ userFederation: { kerberos: [kerberos] } });
  const first = await reconcile(w);
  assert.is(first.outcome?.reason, 'Ready', statusOf(w, 'IdentityRealm', 'identity', 'corp').message);
  assert.equal(component(w)?.providerId, 'kerberos');
  assert.equal(component(w)?.config, {
    enabled: ['true'],
    priority: ['0'],
    kerberosRealm: ['CORP.TEST'],
    serverPrincipal: ['HTTP/sso.corp.test@CORP.TEST'],
    keyTab: [keytabMountPath('sso')],
    debug: ['false'],
    allowPasswordAuthentication: ['true'],
    editMode: ['READ_ONLY'],
    updateProfileFirstLogin: ['false'],
    cachePolicy: ['DEFAULT'],
  });
  assert.is(keytabMountPath('sso'), '/etc/realmforge/keytabs/sso/krb5.keytab');
  w.keycloak.reset();
  assert.equal((await reconcile(w)).outcome?.writes, [], 'read back equal: a resync writes nothing');
  // A hand edit is reverted; a Kerberos provider made by hand is left alone.
  (component(w) as Record<string, any>).config.serverPrincipal = ['HTTP/other@CORP.TEST'];
  const realmId = component(w)?.parentId;
  state(w).components.push({
    id: 'by-hand',
    name: 'hand-made',
    providerId: 'kerberos',
    providerType: 'org.keycloak.storage.UserStorageProvider',
    parentId: realmId,
    config: { kerberosRealm: ['X'], serverPrincipal: ['HTTP/x@X'], keyTab: ['/x'] },
  });
  assert.equal((await reconcile(w)).outcome?.writes, ['update user federation provider corp-kerberos']);
  assert.equal(component(w)?.config.serverPrincipal, ['HTTP/sso.corp.test@CORP.TEST']);
  // Removed from the spec, it is deleted; the hand-made one stays.
  w.kube.put(corp({}));
  const out = await reconcile(w);
  assert.ok(
    out.outcome?.writes?.includes('delete user federation provider corp-kerberos'),
    String(out.outcome?.writes),
  );
  assert.equal(
    state(w).components.map((c) => c.name),
    ['hand-made'],
  );
});

test('a keytab the server does not declare is Failed/InvalidSpec naming the field; nothing is written', async () => {
  const w = world({ userFederation: { kerberos: [{ ...kerberos, keytab: 'other' }] } });
  const out = await reconcile(w);
  assert.is(out.outcome?.reason, 'InvalidSpec');
  const message = String(statusOf(w, 'IdentityRealm', 'identity', 'corp').message);
  assert.match(
    message,
    'spec.userFederation.kerberos[0] (corp-kerberos).keytab: keytab "other" is not declared',
  );
  assert.match(message, 'it declares sso');
  assert.equal(w.keycloak.writes(), []);
});

test('an external server: the keytab is the path on its host, sent as given', async () => {
  const w = world(
    { userFederation: { kerberos: [kerberos] } },
    { keytabs: [{ name: 'sso', path: '/srv/kc/http.keytab' }] },
  );
  assert.is((await reconcile(w)).outcome?.reason, 'Ready');
  assert.equal(component(w)?.config.keyTab, ['/srv/kc/http.keytab']);
});

test('LDAP with kerberos sends Keycloak its Kerberos settings; removing them reverts the provider', async () => {
  const withKerberos = {
    ...ldap,
    kerberos: { kerberosRealm: 'CORP.TEST', serverPrincipal: 'HTTP/sso@CORP.TEST', keytab: 'sso' },
    useKerberosForPasswordAuthentication: true,
  };
  const w = world({ userFederation: { ldap: [withKerberos] } });
  assert.is((await reconcile(w)).outcome?.reason, 'Ready');
  const config = component(w, 'corp-ldap')?.config;
  assert.equal(
    [config.allowKerberosAuthentication, config.keyTab, config.useKerberosForPasswordAuthentication],
    [['true'], [keytabMountPath('sso')], ['true']],
  );
  w.kube.put(corp({ userFederation: { ldap: [ldap] } }));
  assert.equal((await reconcile(w)).outcome?.writes, ['update user federation provider corp-ldap']);
  assert.is(component(w, 'corp-ldap')?.config.allowKerberosAuthentication, undefined);
  assert.is(component(w, 'corp-ldap')?.config.keyTab, undefined);
});

test('a Kerberos provider named like an LDAP provider is refused before anything is written', async () => {
  const w = world({ userFederation: { ldap: [ldap], kerberos: [{ ...kerberos, name: 'corp-ldap' }] } });
  assert.is((await reconcile(w)).outcome?.reason, 'InvalidSpec');
  assert.match(
    String(statusOf(w, 'IdentityRealm', 'identity', 'corp').message),
    'spec.userFederation.kerberos[0].name: "corp-ldap" is also the name of an LDAP provider',
  );
  assert.equal(w.keycloak.writes(), []);
});

test.run();
