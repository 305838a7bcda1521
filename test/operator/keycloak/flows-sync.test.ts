// Custom authentication flows and the realm's bindings through the realm sync, against the strict in-memory
// Keycloak: a flow with a sub-flow, requirements and an authenticator config is built in order and bound; a steady
// resync writes nothing; a hand edit (requirement, order, config, a removed step) is rebuilt; a removed flow is
// unbound first, then deleted; built-in and hand-made flows are never touched; what the server does not offer is
// refused naming the field before any write.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';
import { syncRealm } from '../../../src/operator/controllers/identity-realm/realm-sync.ts';
import { compactServerInfo } from '../../../src/operator/keycloak/server-info.ts';
import { fakeKeycloakAdmin, serverInfo } from './fake-keycloak-admin.ts';
import { killedAfter, observed } from './killed-admin.ts';

type Spec = Partial<IdentityRealm['spec']>;
const resource = (spec: Spec): IdentityRealm => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityRealm',
  metadata: { name: 'login', namespace: 'team' },
  spec: { serverRef: { name: 'kc' }, ...spec },
});
const info = compactServerInfo(serverInfo);
const sync = async (kc: ReturnType<typeof fakeKeycloakAdmin>, spec: Spec) =>
  (await syncRealm(kc.admin, resource(spec), { serverInfo: info })).writes;

const strict: Spec = {
  authenticationFlows: [
    {
      alias: 'strict-grant',
      description: 'direct grant, refused to blocked users',
      executions: [
        { authenticator: 'direct-grant-validate-username', requirement: 'REQUIRED' },
        { authenticator: 'direct-grant-validate-password', requirement: 'REQUIRED' },
        { subFlow: 'blocked-users', requirement: 'CONDITIONAL' },
      ],
    },
    {
      alias: 'blocked-users',
      topLevel: false,
      executions: [
        {
          authenticator: 'conditional-user-role',
          requirement: 'REQUIRED',
          authenticatorConfig: { alias: 'is-blocked', config: { condUserRole: 'blocked', negate: 'false' } },
        },
        { authenticator: 'deny-access-authenticator', requirement: 'REQUIRED' },
      ],
    },
  ],
  authenticationFlowBindings: { directGrant: 'strict-grant' },
};

/** The flow as a user reads it in the console: level, step and requirement, config values. */
async function outline(kc: ReturnType<typeof fakeKeycloakAdmin>, alias: string) {
  const list = (await kc.admin.call<any[]>('t', 'GET', `/login/authentication/flows/${alias}/executions`))
    .body;
  const lines: string[] = [];
  for (const e of list) {
    const config = e.authenticationConfig
      ? (await kc.admin.call<any>('t', 'GET', `/login/authentication/config/${e.authenticationConfig}`)).body
      : undefined;
    lines.push(
      `${e.level}:${e.displayName}:${e.requirement}${config ? `:${config.alias}=${JSON.stringify(config.config)}` : ''}`,
    );
  }
  return lines;
}
const built = [
  '0:direct-grant-validate-username:REQUIRED',
  '0:direct-grant-validate-password:REQUIRED',
  '0:blocked-users:CONDITIONAL',
  '1:conditional-user-role:REQUIRED:is-blocked={"condUserRole":"blocked","negate":"false"}',
  '1:deny-access-authenticator:REQUIRED',
];

test('a created realm gets its flow, in order, and its binding in the first reconcile; then steady', async () => {
  const kc = fakeKeycloakAdmin();
  const writes = await sync(kc, strict);
  assert.equal(writes, [
    'create realm',
    'build authentication flow strict-grant (5 steps)',
    'rename the next version of authentication flow strict-grant',
    'update realm (directGrantFlow)',
  ]);
  assert.equal(await outline(kc, 'strict-grant'), built);
  assert.is(kc.realms.get('login')?.directGrantFlow, 'strict-grant');
  kc.reset();
  assert.equal(await sync(kc, strict), []);
  assert.equal(kc.writes(), []);
  // The realm, the flows, the flow's executions and its one config.
  assert.is(kc.calls.length, 4, kc.calls.join('; '));
});

test('a form sub-flow (registration) is steady too: Keycloak names it by its form provider', async () => {
  const kc = fakeKeycloakAdmin();
  const registration: Spec = {
    authenticationFlows: [
      { alias: 'signup', executions: [{ subFlow: 'signup-form', requirement: 'REQUIRED' }] },
      {
        alias: 'signup-form',
        providerId: 'form-flow',
        topLevel: false,
        executions: [
          { authenticator: 'registration-user-creation', requirement: 'REQUIRED' },
          { authenticator: 'registration-password-action', requirement: 'REQUIRED' },
        ],
      },
    ],
    authenticationFlowBindings: { registration: 'signup' },
  };
  await sync(kc, registration);
  assert.equal(await outline(kc, 'signup'), [
    '0:signup-form:REQUIRED',
    '1:registration-user-creation:REQUIRED',
    '1:registration-password-action:REQUIRED',
  ]);
  kc.reset();
  assert.equal(await sync(kc, registration), []);
});

const replaced = [
  'build authentication flow strict-grant (5 steps)',
  'bind directGrantFlow to the next version of strict-grant',
  'delete the old version of authentication flow strict-grant',
  'rename the next version of authentication flow strict-grant',
];

test('hand edits are replaced: a requirement, the order, a config value, a removed step', async () => {
  const kc = fakeKeycloakAdmin();
  await sync(kc, resource({}).spec);
  assert.ok((await sync(kc, strict)).includes('build authentication flow strict-grant (5 steps)'));
  const realm = kc.realms.get('login') as Record<string, any>;
  const top = realm.flows.find((f: any) => f.alias === 'strict-grant');
  const sub = realm.flows.find((f: any) => f.alias === 'blocked-users');
  const edits: (() => void)[] = [
    () => {
      top.executions[1].requirement = 'ALTERNATIVE';
    },
    () => {
      top.executions[0].priority = 100;
    },
    () => {
      const configId = sub.executions[0].configId;
      realm.authConfigs[configId].config.negate = 'true';
    },
    () => {
      sub.executions.pop();
    },
  ];
  for (const edit of edits) {
    const flows = kc.realms.get('login')?.flows as any[];
    Object.assign(
      top,
      flows.find((f) => f.alias === 'strict-grant'),
    );
    Object.assign(
      sub,
      flows.find((f) => f.alias === 'blocked-users'),
    );
    edit();
    assert.equal(await sync(kc, strict), replaced);
    assert.equal(await outline(kc, 'strict-grant'), built);
    assert.equal(await sync(kc, strict), [], 'steady again');
  }
});

test('removed from the spec: unbound first (back to the built-in flow), then deleted; built-ins stay', async () => {
  const kc = fakeKeycloakAdmin();
  await sync(kc, strict);
  assert.equal(await sync(kc, {}), [
    'update realm (attributes/realmforge.dev/managed-flows, directGrantFlow, realmforge.dev/managed-fields)',
    'delete authentication flow strict-grant',
  ]);
  const realm = kc.realms.get('login') as Record<string, any>;
  assert.is(realm.directGrantFlow, 'direct grant');
  assert.equal(
    realm.flows.map((f: any) => f.alias).sort(),
    [
      'browser',
      'clients',
      'direct grant',
      'docker auth',
      'first broker login',
      'registration',
      'reset credentials',
    ],
    'the sub-flow went with its flow; every built-in flow stays',
  );
  kc.reset();
  assert.equal(await sync(kc, {}), []);
  assert.equal(kc.calls, ['GET /login'], 'once pruned, flows are not read again');
});

test("a built-in flow's alias, or a flow made by hand, is NameConflict; nothing is written", async () => {
  const kc = fakeKeycloakAdmin();
  await sync(kc, {});
  await kc.admin.call('t', 'POST', '/login/authentication/flows', {
    alias: 'by-hand',
    providerId: 'basic-flow',
  });
  for (const alias of ['browser', 'by-hand']) {
    kc.reset();
    const error = await sync(kc, { authenticationFlows: [{ alias, executions: [] }] }).then(
      () => undefined,
      (e: Error & { reason?: string }) => e,
    );
    assert.is(error?.reason, 'NameConflict');
    assert.match(String(error?.message), new RegExp(`spec.authenticationFlows declares flow "${alias}"`));
    assert.equal(kc.writes(), []);
  }
});

test('a sub-flow alias taken by another flow of the realm is refused naming it, not left half-built quietly', async () => {
  const kc = fakeKeycloakAdmin();
  await sync(kc, {});
  await kc.admin.call('t', 'POST', '/login/authentication/flows', {
    alias: 'blocked-users',
    providerId: 'basic-flow',
  });
  kc.reset();
  const error = await sync(kc, strict).then(
    () => undefined,
    (e: Error & { kind?: string }) => e,
  );
  assert.is(error?.kind, 'conflict');
  assert.match(
    String(error?.message),
    /spec\.authenticationFlows\[blocked-users\]: sub-flow "blocked-users" has the alias of another flow of the realm/,
  );
  assert.equal(kc.writes(), [], 'nothing is built');
});

/** `strict` with the sub-flow's role check on role `role`. */
const checking = (role: string): Spec => ({
  ...strict,
  authenticationFlows: strict.authenticationFlows?.map((f) =>
    f.alias !== 'blocked-users'
      ? f
      : {
          ...f,
          executions: f.executions?.map((e) =>
            e.authenticatorConfig
              ? {
                  ...e,
                  authenticatorConfig: {
                    alias: 'is-blocked',
                    config: { condUserRole: role, negate: 'false' },
                  },
                }
              : e,
          ),
        },
  ),
});
const outlineOf = (role: string) => built.map((l) => l.replace('"blocked"', `"${role}"`));
/** Whether the flow bound for direct grants is a complete version, old or new (a next version's names aside). */
async function boundComplete(kc: ReturnType<typeof fakeKeycloakAdmin>) {
  const bound = String(kc.realms.get('login')?.directGrantFlow);
  const now = JSON.stringify(await outline(kc, encodeURIComponent(bound))).replaceAll('-realmforge-next', '');
  return { ok: [outlineOf('blocked'), outlineOf('banned')].some((o) => JSON.stringify(o) === now), now };
}

test('a bound flow is replaced, never edited: after every call the binding names a complete version', async () => {
  const kc = fakeKeycloakAdmin();
  await sync(kc, checking('blocked'));
  const seen = new Set<string>();
  const watched = observed(kc.admin, async (method, path) => {
    const { ok, now } = await boundComplete(kc);
    assert.ok(ok, `after ${method} ${path}: ${now}`);
    seen.add(now);
  });
  const writes = (await syncRealm(watched, resource(checking('banned')), { serverInfo: info })).writes;
  assert.equal(writes, replaced);
  assert.is(seen.size, 2, 'the binding moved from the old version to the new one');
  assert.equal(await outline(kc, 'strict-grant'), outlineOf('banned'));
  assert.equal(await sync(kc, checking('banned')), [], 'steady');
});

test('a crash after any write leaves a complete version bound; the next reconcile finishes or cleans up', async () => {
  for (let limit = 0; ; limit++) {
    const kc = fakeKeycloakAdmin();
    await sync(kc, checking('blocked'));
    const crashing = killedAfter(kc.admin, limit);
    const crashed = await syncRealm(crashing, resource(checking('banned')), { serverInfo: info }).then(
      () => false,
      () => true,
    );
    const { ok, now } = await boundComplete(kc);
    assert.ok(ok, `crash after ${limit} writes: ${now}`);
    await sync(kc, checking('banned'));
    const flows = ((kc.realms.get('login')?.flows ?? []) as { alias: string }[]).map((f) => f.alias);
    assert.not.ok(
      flows.some((a) => a.includes('-realmforge-next')),
      `crash after ${limit}: leftovers ${flows}`,
    );
    assert.is(kc.realms.get('login')?.directGrantFlow, 'strict-grant');
    assert.equal(await outline(kc, 'strict-grant'), outlineOf('banned'), `crash after ${limit}`);
    assert.equal(await sync(kc, checking('banned')), [], `steady after a crash after ${limit}`);
    if (!crashed) break;
  }
});

test('an authenticator the server lacks, or a sub-flow placed wrong, is InvalidSpec naming the field', async () => {
  const kc = fakeKeycloakAdmin();
  for (const [flows, message] of [
    [
      [{ alias: 'a', executions: [{ authenticator: 'no-such-step', requirement: 'REQUIRED' }] }],
      /spec\.authenticationFlows\[a\]\.executions\[0\]\.authenticator: Keycloak 26\.7\.3 has no authenticator provider "no-such-step"/,
    ],
    [
      [{ alias: 'a', executions: [{ subFlow: 'missing', requirement: 'REQUIRED' }] }],
      /spec\.authenticationFlows\[a\]\.executions\[0\]\.subFlow: "missing" is not a flow declared with topLevel: false/,
    ],
    [
      [{ alias: 'lonely', topLevel: false }],
      /spec\.authenticationFlows\[lonely\]: a sub-flow \(topLevel false\) no execution names in subFlow/,
    ],
  ] as [Spec['authenticationFlows'], RegExp][]) {
    const error = await sync(kc, { authenticationFlows: flows }).then(
      () => undefined,
      (e: Error & { kind?: string }) => e,
    );
    assert.is(error?.kind, 'validation');
    assert.match(String(error?.message), message);
  }
  assert.equal(kc.writes(), [], 'refused before the realm was even created');
});

test.run();
