// A realm's client-policy documents are read, changed and written whole by two kinds of reconcile (the realm's
// spec.clientPolicies and a client's rotation grace): run at once, each would write back the list it read and lose
// the other's item. The lock runs them one after the other, per Keycloak and realm; a failed change frees it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { AdminClient } from '../../../src/operator/keycloak/admin-client.ts';
import { withClientPolicyDocuments } from '../../../src/operator/keycloak/document-lock.ts';

const admin = { baseUrl: 'http://kc' } as AdminClient;
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** One read-change-write of a shared document, with the awaits a real call has between the read and the write. */
function addItem(doc: { items: string[] }, item: string) {
  return async () => {
    const read = [...doc.items];
    await tick();
    await tick();
    doc.items = [...read, item];
  };
}

test('two changes of one realm document at once keep both items; without the lock one is lost', async () => {
  const unlocked = { items: [] as string[] };
  await Promise.all([addItem(unlocked, 'realm-profile')(), addItem(unlocked, 'grace-profile')()]);
  assert.is(unlocked.items.length, 1, 'the race this lock exists for');
  const doc = { items: [] as string[] };
  await Promise.all([
    withClientPolicyDocuments(admin, 'apps', addItem(doc, 'realm-profile')),
    withClientPolicyDocuments(admin, 'apps', addItem(doc, 'grace-profile')),
  ]);
  assert.equal(doc.items.sort(), ['grace-profile', 'realm-profile']);
});

test('a change that fails frees the lock for the next; another realm does not wait', async () => {
  const failed = withClientPolicyDocuments(admin, 'apps', async () => {
    throw new Error('Keycloak answered 500');
  });
  const next = withClientPolicyDocuments(admin, 'apps', async () => 'ran');
  const error = await failed.then(
    () => undefined,
    (e: Error) => e.message,
  );
  assert.is(error, 'Keycloak answered 500');
  assert.is(await next, 'ran');
  const order: string[] = [];
  const slow = withClientPolicyDocuments(admin, 'apps', async () => {
    await new Promise((r) => setTimeout(r, 20));
    order.push('apps');
  });
  await withClientPolicyDocuments(admin, 'other', async () => {
    order.push('other');
  });
  await slow;
  assert.equal(order, ['other', 'apps']);
});

test.run();
