// Reads from the watches: a watched type is answered from its cache without asking the API server; a watch with a
// label selector answers only what it can know; a Secret read in a namespace starts a watch of the operator's own
// Secrets there, after which those reads stay local too.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KubeObject } from '../../../src/operator/compile/kube-object.ts';
import type { KubeClient } from '../../../src/operator/runtime/kube-client.ts';
import { cachedKube, createWatchCache, ownedSelector } from '../../../src/operator/runtime/watch-cache.ts';
import type { WatchedType, WatchSource } from '../../../src/operator/runtime/watch-source.ts';
import { fakeKube } from '../controllers/fake-kube.ts';

const owned = { 'app.kubernetes.io/managed-by': 'realmforge', 'app.kubernetes.io/name': 'keycloak' };
const o = (apiVersion: string, kind: string, namespace: string, name: string, labels?: object): KubeObject =>
  ({ apiVersion, kind, metadata: { name, namespace, labels } }) as KubeObject;

function source(objects: KubeObject[], synced = true): WatchSource & { sync(): void } {
  let done = synced;
  return {
    keys: () => [],
    objects: () => objects,
    synced: () => done,
    stop: async () => {},
    sync() {
      done = true;
    },
  };
}

/** The API server behind the cache, counting what reaches it. */
function counted(objects: KubeObject[]) {
  const kube = fakeKube(objects);
  const asked: string[] = [];
  const client: KubeClient = {
    ...kube,
    get: (ref) => {
      asked.push(`get ${ref.kind} ${ref.namespace}/${ref.name}`);
      return kube.get(ref);
    },
    list: (type, ns, sel) => {
      asked.push(`list ${type.kind} ${ns}`);
      return kube.list(type, ns, sel);
    },
  };
  return { asked, client };
}

const realm = o('realmforge.dev/v1', 'IdentityRealm', 'team', 'r1');
const deployment = o('apps/v1', 'Deployment', 'identity', 'kc', owned);
const service = o('v1', 'Service', 'identity', 'kc', { ...owned, 'app.kubernetes.io/instance': 'kc' });

test('a watched type is read from its cache; a missing object is missing without asking', async () => {
  const api = counted([realm]);
  const cache = createWatchCache();
  cache.register({ apiVersion: 'realmforge.dev/v1', kind: 'IdentityRealm' }, source([realm]));
  const kube = cachedKube(api.client, cache);
  const got = await kube.get({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityRealm',
    namespace: 'team',
    name: 'r1',
  });
  assert.is(got?.metadata.name, 'r1');
  (got as KubeObject).metadata.name = 'changed by a reconcile';
  const again = await kube.get({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityRealm',
    namespace: 'team',
    name: 'r1',
  });
  assert.is(again?.metadata.name, 'r1', 'callers get a copy, never the cached object');
  assert.is(
    await kube.get({
      apiVersion: 'realmforge.dev/v1',
      kind: 'IdentityRealm',
      namespace: 'team',
      name: 'gone',
    }),
    undefined,
  );
  assert.equal(api.asked, []);
  await kube.get({ apiVersion: 'realmforge.dev/v1', kind: 'IdentityClient', namespace: 'team', name: 'c' });
  assert.equal(api.asked, ['get IdentityClient team/c'], 'an unwatched type goes to the API server');
});

test('a label-selected watch answers hits and implied lists; a miss or a wider list asks the API server', async () => {
  const api = counted([deployment, service]);
  const cache = createWatchCache();
  const selector = 'app.kubernetes.io/managed-by=realmforge,app.kubernetes.io/name=keycloak';
  cache.register(
    { apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: selector },
    source([deployment]),
  );
  cache.register({ apiVersion: 'v1', kind: 'Service', labelSelector: selector }, source([service]));
  const kube = cachedKube(api.client, cache);
  assert.is(
    (await kube.get({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'identity', name: 'kc' }))?.kind,
    'Deployment',
  );
  assert.equal(api.asked, []);
  await kube.get({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'identity', name: 'unlabelled' });
  assert.equal(api.asked, ['get Deployment identity/unlabelled'], 'the watch cannot know unlabelled objects');
  api.asked.length = 0;
  const listed = await kube.list(
    { apiVersion: 'v1', kind: 'Service' },
    'identity',
    `app.kubernetes.io/instance=kc,${selector}`,
  );
  assert.equal(
    listed.map((s) => s.metadata.name),
    ['kc'],
  );
  assert.equal(await kube.list({ apiVersion: 'v1', kind: 'Service' }, 'other', selector), []);
  assert.equal(api.asked, []);
  await kube.list({ apiVersion: 'v1', kind: 'Service' }, 'identity', 'app.kubernetes.io/instance=kc');
  assert.equal(api.asked, ['list Service identity'], 'a selector wider than the watch asks the API server');
});

test('a watch that has not listed yet answers nothing', async () => {
  const api = counted([realm]);
  const cache = createWatchCache();
  const pending = source([], false);
  cache.register({ apiVersion: 'realmforge.dev/v1', kind: 'IdentityRealm' }, pending);
  const kube = cachedKube(api.client, cache);
  const ref = { apiVersion: 'realmforge.dev/v1', kind: 'IdentityRealm', namespace: 'team', name: 'r1' };
  assert.is((await kube.get(ref))?.metadata.name, 'r1');
  assert.equal(api.asked, ['get IdentityRealm team/r1']);
});

test('the first Secret read in a namespace starts a watch of our Secrets there; later reads stay local', async () => {
  const creds = o('v1', 'Secret', 'team', 'app-credentials', {
    'app.kubernetes.io/managed-by': 'realmforge',
  });
  const theirs = o('v1', 'Secret', 'team', 'their-secret');
  const api = counted([creds, theirs]);
  const cache = createWatchCache();
  const started: WatchedType[] = [];
  const watch = source([creds], false);
  cache.startNamespaced = (type) => {
    started.push(type);
    return watch;
  };
  const kube = cachedKube(api.client, cache);
  const ref = { apiVersion: 'v1', kind: 'Secret', namespace: 'team', name: 'app-credentials' };
  await kube.get(ref);
  await kube.get(ref);
  assert.equal(started, [
    { apiVersion: 'v1', kind: 'Secret', labelSelector: ownedSelector, namespace: 'team' },
  ]);
  assert.is(api.asked.length, 2, 'until the watch has listed, reads go to the API server');
  watch.sync();
  api.asked.length = 0;
  assert.is((await kube.get(ref))?.metadata.name, 'app-credentials');
  assert.equal(api.asked, []);
  await kube.get({ ...ref, name: 'their-secret' });
  await kube.get({ ...ref, namespace: 'elsewhere' });
  assert.equal(api.asked, ['get Secret team/their-secret', 'get Secret elsewhere/app-credentials']);
  assert.is(started.length, 2, 'one watch per namespace');
});

test.run();
