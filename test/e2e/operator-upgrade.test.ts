// A server on Keycloak 25 upgraded to the 26 line on the same database, then deleted and re-created on it (the
// database retained). One test: it starts three Keycloak processes. Ready goes False during the rollout and comes
// back only with the new pod; status.version is right at each step; a pod of each version never runs at the same
// time; realms, clients and users survive; the re-created server takes the admin kept beside the database.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, type TestEnv } from '../../scripts/testenv/harness.ts';
import { getResource, identityServer, waitStatus } from '../../scripts/testenv/identity-fixtures.ts';
import type { OperatorProcess } from '../../scripts/testenv/operator-process.ts';
import { keycloakVersions } from '../../scripts/testenv/versions.ts';
import { loadEndpointMap } from '../../src/operator/runtime/endpoint-map.ts';
import { type OperatorSuite, operatorSuite } from './helpers/operator-suite.ts';
import { recordWatch } from './helpers/recorded-watch.ts';

const from = keycloakVersions['25'].version;
const to = keycloakVersions['26'].version;
let suite: OperatorSuite;
let env: TestEnv;
let operator: OperatorProcess;
let ns: string;

test.before(async () => {
  suite = await operatorSuite('upgrade');
  ({ env, ns, operator } = suite);
});
test.after(() => suite?.close());

const server = (tag: string) => {
  const s = identityServer(ns, 'idp', 'pg');
  return { ...s, spec: { ...s.spec, image: { tag } } };
};
const readyWith = (version: string) => (s: any) => s.phase === 'Ready' && s.version === version;

async function clientLogin(): Promise<number> {
  const secret = await env.core.readNamespacedSecret({ namespace: ns, name: 'web-credentials' });
  const value = (k: string) => Buffer.from(secret.data?.[k] ?? '', 'base64').toString('utf8');
  const url = loadEndpointMap(env.state.endpointMapFile).resolve(value('token-endpoint'));
  const res = await fetch(url, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: value('client-id'),
      client_secret: value('client-secret'),
    }),
  });
  return res.status;
}

/** Prints the operator's reconciles of the server (what it saw and how long each took) beside a failure. */
function printServerLog(): void {
  const lines = operator
    .logs()
    .filter((l) => l.kind === 'IdentityServer' && l.msg === 'reconciled')
    .map((l) => `${l.time} ${l.phase}/${l.reason} ${l.durationMs} ms applied=${JSON.stringify(l.applied)}`);
  console.error(`operator reconciles of the server:\n${lines.slice(-40).join('\n')}`);
}

test(`${from} -> ${to}: old and new never run together, Ready and version follow the rollout; a re-created server recovers`, async () => {
  try {
    await env.apply(server(from) as never);
    await waitStatus(env, 'identityservers', ns, 'idp', 600_000, readyWith(from), `to be Ready on ${from}`);
    await env.apply({
      apiVersion: 'realmforge.dev/v1',
      kind: 'IdentityRealm',
      metadata: { name: 'apps', namespace: ns },
      spec: { serverRef: { name: 'idp' }, clientAuthorizationGrants: [ns], roles: [{ name: 'reader' }] },
    } as never);
    await env.apply({
      apiVersion: 'realmforge.dev/v1',
      kind: 'IdentityClient',
      metadata: { name: 'web', namespace: ns },
      spec: { realmRef: { name: 'apps' }, serviceAccount: { enabled: true } },
    } as never);
    await waitStatus(env, 'identityclients', ns, 'web', 120_000, (s) => s.phase === 'Ready', 'to be Ready');
    assert.is(await clientLogin(), 200);

    // Watch the pods and the server while upgrading: every moment two versions' pods exist, and every status written.
    // A watch, not a poll: a status that lasts less than a poll interval is still a status a user may be shown.
    const pods = new Map<string, string>();
    const overlaps: string[] = [];
    const podWatch = await recordWatch(
      env,
      `/api/v1/namespaces/${ns}/pods`,
      { labelSelector: 'app.kubernetes.io/instance=idp' },
      ({ type, object }) => {
        const uid = object.metadata.uid;
        if (type === 'DELETED') pods.delete(uid);
        else pods.set(uid, object.spec.containers[0].image.split(':').pop());
        const versions = new Set(pods.values());
        if (versions.size > 1) overlaps.push([...versions].join(' + '));
      },
    );
    const serverWatch = await recordWatch(env, `/apis/realmforge.dev/v1/namespaces/${ns}/identityservers`, {
      fieldSelector: 'metadata.name=idp',
    });
    await env.apply(server(to) as never);
    await waitStatus(env, 'identityservers', ns, 'idp', 900_000, readyWith(to), `to be Ready on ${to}`);
    await podWatch.stop();
    await serverWatch.stop();
    assert.equal(overlaps, [], 'two Keycloak versions never ran against the database at the same time');
    const seen = serverWatch.changes.map(({ object }) => ({
      phase: object.status?.phase,
      version: object.status?.version,
      reason: object.status?.reason,
      ready: object.status?.conditions?.find((c: { type: string }) => c.type === 'Ready')?.status,
    }));
    const during = seen.filter((s) => s.phase !== 'Ready');
    const history = JSON.stringify(seen);
    assert.ok(during.length > 0, `Ready went False during the rollout: ${history}`);
    assert.ok(
      during.every((s) => s.version === from && s.ready === 'False'),
      `status.version stays ${from} and condition Ready False until the new pod is ready: ${history}`,
    );
    assert.ok(
      during.some((s) => s.reason === 'UpgradeInProgress'),
      `UpgradeInProgress was shown: ${history}`,
    );
    // Ready comes back once, at the end, with the new version: never Ready in between.
    const firstBack = seen.findIndex((s, i) => i > seen.indexOf(during[0]) && s.phase === 'Ready');
    assert.ok(
      seen.slice(firstBack).every((s) => s.phase === 'Ready' && s.version === to),
      history,
    );
    const status = (await getResource(env, 'identityservers', ns, 'idp')).status;
    assert.is(status.databaseVersion, to);
    await waitStatus(env, 'identityclients', ns, 'web', 120_000, (s) => s.phase === 'Ready', 'to be Ready');
    assert.is(await clientLogin(), 200, 'realm, client and its secret survived the migration');

    // A downgrade below the migrated version is refused and changes nothing.
    await env.apply(server(from) as never);
    const refused = await waitStatus(
      env,
      'identityservers',
      ns,
      'idp',
      60_000,
      (s) => s.reason === 'DowngradeRefused',
      'to refuse the downgrade',
    );
    assert.match(refused.status.message, `below ${to}`);
    const d = await env.apps.readNamespacedDeployment({ namespace: ns, name: 'idp' });
    assert.match(d.spec?.template.spec?.containers[0]?.image ?? '', `:${to}`);

    // Deleted (the database retained) and re-created: Ready again with the admin kept beside the database.
    await env.request('DELETE', `/apis/realmforge.dev/v1/namespaces/${ns}/identityservers/idp`);
    await env.request('DELETE', `/api/v1/namespaces/${ns}/secrets/idp-admin-credentials`);
    await eventually('the old server and its Deployment to be gone', 120_000, async () => {
      const left = await env.request('GET', `/apis/apps/v1/namespaces/${ns}/deployments/idp`);
      return left.status === 404 && !(await getResource(env, 'identityservers', ns, 'idp'))
        ? true
        : undefined;
    });
    await env.apply(server(to) as never);
    await waitStatus(
      env,
      'identityservers',
      ns,
      'idp',
      600_000,
      readyWith(to),
      'to be Ready after re-creation',
    );
    await waitStatus(env, 'identityclients', ns, 'web', 120_000, (s) => s.phase === 'Ready', 'to be Ready');
    assert.is(await clientLogin(), 200);
  } catch (e) {
    printServerLog();
    throw e;
  }
});

test.run();
