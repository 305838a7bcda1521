// Keycloak 25 drops a realm's browser security headers from an update that sends attributes without them: every
// realm update the operator sends with attributes carries the headers as the realm has them, unless the spec sets
// them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';
import { syncRealm } from '../../../src/operator/controllers/identity-realm/realm-sync.ts';
import { bodiesOf, fakeKeycloakAdmin } from './fake-keycloak-admin.ts';

const realm = (displayName: string): IdentityRealm =>
  ({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityRealm',
    metadata: { name: 'apps', namespace: 'team' },
    spec: { serverRef: { name: 'kc' }, displayName },
  }) as IdentityRealm;

test("a realm update with attributes carries the realm's browser security headers", async () => {
  const kc = fakeKeycloakAdmin();
  await syncRealm(kc.admin, realm('Apps'), {});
  const headers = { xFrameOptions: 'DENY', contentSecurityPolicy: "frame-src 'self';" };
  (kc.realms.get('apps') as Record<string, unknown>).browserSecurityHeaders = headers;
  const { admin, bodies: puts } = bodiesOf(kc, 'PUT', '/apps');
  const { writes } = await syncRealm(admin, realm('Apps, renamed'), {});
  assert.ok(
    writes.some((w) => w.startsWith('update realm')),
    writes.join('; '),
  );
  assert.ok(puts.length > 0 && puts.every((p) => p.attributes !== undefined));
  for (const put of puts) assert.equal(put.browserSecurityHeaders, headers);
});

test.run();
