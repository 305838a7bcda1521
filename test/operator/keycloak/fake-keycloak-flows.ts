// The fake Keycloak's authentication flows (see fake-keycloak-admin.ts), as strict as the real admin API where the
// operator could be fooled: an execution is added DISABLED and last; an update sets the priority it is given (0
// when left out, as Keycloak's int field does), which reorders; a sub-flow is added through its parent and deleted
// with its execution, a top-level flow with its sub-flows; aliases are unique across all flows (409), a rename
// keeps the id and the bindings; a new flow's alias with a character Keycloak 26 refuses ('(' and the like) is
// 400; built-in flows cannot be deleted, nor can a flow a realm binding names; an unknown authenticator is 400.
import { randomUUID } from 'node:crypto';
import { realmBindings } from '../../../src/operator/keycloak/collections/flow-replacement.ts';
import { copy, type Realm, reply } from './fake-keycloak-scopes.ts';

type Obj = Record<string, any>;

/** The authenticators the fake server offers, by SPI (a few of Keycloak's). */
export const authenticators: Record<string, string[]> = {
  authenticator: [
    'auth-cookie',
    'auth-username-password-form',
    'auth-otp-form',
    'direct-grant-validate-username',
    'direct-grant-validate-password',
    'deny-access-authenticator',
    'conditional-user-role',
    'identity-provider-redirector',
  ],
  'form-action': ['registration-user-creation', 'registration-password-action'],
};

const flow = (alias: string, providerId: string, topLevel: boolean, builtIn: boolean, steps: string[]) => ({
  id: randomUUID(),
  alias,
  description: '',
  providerId,
  topLevel,
  builtIn,
  executions: steps.map((authenticator, i) => ({
    id: randomUUID(),
    authenticator,
    requirement: 'REQUIRED',
    priority: (i + 1) * 10,
  })),
});

/** A new realm's built-in flows (the executions the operator never sees, shortened). */
export const builtInFlows = () => [
  flow('browser', 'basic-flow', true, true, ['auth-cookie']),
  flow('direct grant', 'basic-flow', true, true, [
    'direct-grant-validate-username',
    'direct-grant-validate-password',
  ]),
  flow('registration', 'basic-flow', true, true, []),
  flow('reset credentials', 'basic-flow', true, true, []),
  flow('clients', 'client-flow', true, true, ['client-secret']),
  flow('first broker login', 'basic-flow', true, true, []),
  flow('docker auth', 'basic-flow', true, true, []),
];

const bindings = realmBindings;
/** Whether a realm binding names `alias` (Keycloak refuses a binding to a flow that does not exist). */
export const unknownBinding = (realm: Realm, body: Obj) =>
  bindings.find((b) => body[b] !== undefined && !realm.flows.some((f: Obj) => f.alias === body[b]));

function flatten(realm: Realm, f: Obj, level: number): Obj[] {
  const sorted = [...f.executions].sort((a, b) => a.priority - b.priority);
  return sorted.flatMap((e, index) => {
    const sub = e.flowId ? realm.flows.find((x: Obj) => x.id === e.flowId) : undefined;
    const info = {
      id: e.id,
      requirement: e.requirement,
      level,
      index,
      priority: e.priority,
      ...(sub
        ? {
            authenticationFlow: true,
            displayName: sub.alias,
            description: sub.description,
            // As Keycloak: no provider for a basic sub-flow, the form's provider for a form sub-flow.
            ...(sub.providerId === 'form-flow' ? { providerId: 'registration-page-form' } : {}),
            flowId: sub.id,
          }
        : { providerId: e.authenticator, displayName: e.authenticator, configurable: true }),
      ...(e.configId
        ? { authenticationConfig: e.configId, alias: realm.authConfigs[e.configId]?.alias }
        : {}),
    };
    return [info, ...(sub ? flatten(realm, sub, level + 1) : [])];
  });
}

function deleteFlow(realm: Realm, f: Obj) {
  for (const e of f.executions) removeExecution(realm, e);
  realm.flows = realm.flows.filter((x: Obj) => x !== f);
}
function removeExecution(realm: Realm, e: Obj) {
  if (e.configId) delete realm.authConfigs[e.configId];
  const sub = e.flowId && realm.flows.find((x: Obj) => x.id === e.flowId);
  if (sub) deleteFlow(realm, sub);
}

/** A new realm's required actions (a few of Keycloak's, with its settings). */
export const builtInRequiredActions = () =>
  (
    [
      ['CONFIGURE_TOTP', true, 10],
      ['TERMS_AND_CONDITIONS', false, 20],
      ['UPDATE_PASSWORD', true, 30],
      ['UPDATE_PROFILE', true, 40],
      ['VERIFY_EMAIL', true, 50],
      ['webauthn-register', true, 70],
    ] as const
  ).map(([alias, enabled, priority]) => ({
    alias,
    name: alias,
    providerId: alias,
    enabled,
    defaultAction: false,
    priority,
    config: {},
  }));

/** /authentication routes: parts from the realm name on, e.g. [realm, 'authentication', 'flows', alias, ...]. */
export function flowRoute(realm: Realm, parts: string[], method: string, body: any) {
  const [, , kind, id, sub, what] = parts;
  const byAlias = (alias: string | undefined) => realm.flows.find((f: Obj) => f.alias === alias);
  if (kind === 'required-actions') {
    if (method === 'GET' && !id)
      return reply(200, copy([...realm.requiredActions].sort((a: Obj, b: Obj) => a.priority - b.priority)));
    const action = realm.requiredActions.find((a: Obj) => a.alias === id);
    if (!action) return reply(404, { error: 'Failed to find required action' });
    if (method !== 'PUT') return reply(405);
    // Keycloak sets every setting from the body: one left out becomes false / 0.
    Object.assign(action, {
      enabled: Boolean(body.enabled),
      defaultAction: Boolean(body.defaultAction),
      priority: body.priority ?? 0,
    });
    return reply(204);
  }
  const nextPriority = (f: Obj) => Math.max(0, ...f.executions.map((e: Obj) => e.priority)) + 10;
  if (kind === 'flows' && !id) {
    if (method === 'GET')
      return reply(
        200,
        copy(realm.flows.filter((f: Obj) => f.topLevel)).map(({ executions: _, ...f }: Obj) => f),
      );
    if (byAlias(body.alias)) return reply(409, { errorMessage: `Flow ${body.alias} already exists` });
    const odd = /[^\w .-]/.exec(String(body.alias));
    if (odd) return reply(400, { errorMessage: `Character '${odd[0]}' not allowed.` });
    realm.flows.push({
      ...flow(body.alias, body.providerId, true, false, []),
      description: body.description ?? '',
    });
    return reply(201);
  }
  if (kind === 'flows' && sub === 'executions') {
    const f = byAlias(id);
    if (!f) return reply(404, { error: 'Flow not found' });
    if (method === 'GET' && !what) return reply(200, flatten(realm, f, 0));
    if (method === 'PUT' && !what) {
      const e = realm.flows.flatMap((x: Obj) => x.executions).find((x: Obj) => x.id === body.id);
      if (!e) return reply(404, { error: 'Illegal execution' });
      e.requirement = body.requirement;
      e.priority = body.priority ?? 0;
      return reply(204);
    }
    if (what === 'execution') {
      const spi = f.providerId === 'form-flow' ? 'form-action' : 'authenticator';
      if (!authenticators[spi]?.includes(body.provider))
        return reply(400, { error: `No authentication provider found for id: ${body.provider}` });
      f.executions.push({
        id: randomUUID(),
        authenticator: body.provider,
        requirement: 'DISABLED',
        priority: nextPriority(f),
      });
      return reply(201);
    }
    if (what === 'flow') {
      if (byAlias(body.alias)) return reply(409, { errorMessage: `New flow alias name already exists` });
      const odd = /[^\w .-]/.exec(String(body.alias));
      if (odd) return reply(400, { errorMessage: `Character '${odd[0]}' not allowed.` });
      const child = { ...flow(body.alias, body.type, false, false, []), description: body.description ?? '' };
      realm.flows.push(child);
      f.executions.push({
        id: randomUUID(),
        flowId: child.id,
        requirement: 'DISABLED',
        priority: nextPriority(f),
      });
      return reply(201);
    }
  }
  if (kind === 'flows' && id && !sub) {
    const f = realm.flows.find((x: Obj) => x.id === id);
    if (!f) return reply(404, { error: 'Could not find flow with id' });
    if (method === 'PUT') {
      // A rename (of a top-level flow or a sub-flow) keeps the id, and Keycloak binds flows by id: the realm's
      // bindings follow it. An alias another flow has is 409.
      if (body.alias !== f.alias && byAlias(body.alias))
        return reply(409, { errorMessage: 'Flow alias name already exists' });
      for (const b of bindings) if (realm[b] === f.alias) realm[b] = body.alias;
      f.alias = body.alias ?? f.alias;
      f.description = body.description ?? '';
      return reply(204);
    }
    if (f.builtIn) return reply(400, { error: "Can't delete built in flow" });
    if (bindings.some((b) => realm[b] === f.alias))
      return reply(409, { errorMessage: 'Cannot delete flow in use' });
    deleteFlow(realm, f);
    return reply(204);
  }
  if (kind === 'executions' && id) {
    const owner = realm.flows.find((x: Obj) => x.executions.some((e: Obj) => e.id === id));
    const e = owner?.executions.find((x: Obj) => x.id === id);
    if (!e) return reply(404, { error: 'Illegal execution' });
    if (method === 'DELETE') {
      removeExecution(realm, e);
      owner.executions = owner.executions.filter((x: Obj) => x !== e);
      return reply(204);
    }
    if (sub === 'config' && method === 'POST') {
      const configId = randomUUID();
      realm.authConfigs[configId] = { id: configId, alias: body.alias, config: body.config ?? {} };
      e.configId = configId;
      return reply(201);
    }
  }
  if (kind === 'config' && id) {
    const config = realm.authConfigs[id];
    if (!config) return reply(404, { error: 'Could not find authenticator config' });
    if (method === 'GET') return reply(200, copy(config));
    if (method === 'PUT') Object.assign(config, { alias: body.alias, config: body.config ?? {} });
    return reply(204);
  }
  return reply(404, { error: `no route for ${method} ${parts.slice(1).join('/')}` });
}
