import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ownerKey, ownKey } from '../../../src/operator/runtime/watch-source.ts';

test('watched objects map to the key of the resource whose reconcile they should wake', () => {
  const server = { metadata: { name: 'kc', namespace: 'identity' } };
  const deployment = {
    metadata: {
      name: 'kc',
      namespace: 'identity',
      ownerReferences: [
        { apiVersion: 'x/v1', kind: 'Other', name: 'no', uid: '1', controller: false },
        { apiVersion: 'realmforge.dev/v1', kind: 'IdentityServer', name: 'kc', uid: '2', controller: true },
      ],
    },
  };
  assert.is(ownKey(server), 'identity/kc');
  assert.is(ownerKey('IdentityServer')(deployment), 'identity/kc');
  assert.is(ownerKey('IdentityServer')(server), undefined, 'an unowned object wakes nothing');
  assert.is(ownerKey('IdentityRealm')(deployment), undefined);
  assert.is(ownKey({ metadata: {} }), undefined);
});

test.run();
