// The kept copy of the admin credentials is a valid Kubernetes object whatever the database is called: a
// PostgreSQL name with `_` or capitals still gives a DNS-1123 Secret name, and a long one a label of 63 or fewer.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveServer } from '../../../../src/operator/compile/resolved-server.ts';
import { keptAdminSecret } from '../../../../src/operator/controllers/identity-server/server-admin.ts';
import { server } from '../../compile/fixtures.ts';

test('a database named with underscores and capitals gives a valid Secret name and label', () => {
  const name = `Kc_Faults_${'x'.repeat(60)}`;
  const secret = keptAdminSecret(resolveServer(server({ database: { cluster: 'pg', name } })), {
    username: 'admin',
    password: 'pw',
  });
  const meta = secret.metadata;
  assert.match(meta.name, /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/);
  assert.ok(meta.name.startsWith('pg-kc-faults-x'), meta.name);
  const label = meta.labels?.['realmforge.dev/database'] ?? '';
  assert.ok(label.length <= 63, label);
  const short = keptAdminSecret(resolveServer(server({ database: { cluster: 'pg', name: 'keycloak' } })), {
    username: 'a',
    password: 'b',
  });
  assert.is(short.metadata.name, 'pg-keycloak-keycloak-admin');
  assert.is(short.metadata.labels?.['realmforge.dev/database'], 'pg.keycloak');
});

test.run();
