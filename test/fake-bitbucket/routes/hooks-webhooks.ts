// Routes for repository and project hooks and webhooks (bbdc hook, webhook, project webhook).
import { type FakeHookDef, type FakeWebhook, opsState } from '../ops-state.ts';
import { bitbucketError, page, type Route, type RouteContext, type RouteTable } from '../route-types.ts';
import { adminScope, isError, type RouteScope } from './scope.ts';

function hookJson(ctx: RouteContext, scope: RouteScope, def: FakeHookDef) {
  const ops = opsState(ctx.state);
  const own = ops.hooks[`${scope.id}|${def.key}`];
  const project = scope.type === 'repository' ? ops.hooks[`${scope.project}|${def.key}`] : undefined;
  const config = own ?? project;
  const from = own ? scope.type.toUpperCase() : project ? 'PROJECT' : 'GLOBAL';
  return {
    details: {
      key: def.key,
      name: def.name,
      type: def.type,
      description: def.description,
      version: '9.4.0',
      supportedScopes: ['PROJECT', 'REPOSITORY'],
      ...(def.configFormKey && { configFormKey: def.configFormKey }),
    },
    enabled: config?.enabled ?? false,
    configured: config?.settings !== undefined,
    scope: { type: from, resourceId: scope.type === 'repository' ? scope.repoId : 1 },
  };
}

/** A route that needs an administered scope and, when the path names one, an existing hook. */
function hookRoute(
  handle: (ctx: RouteContext, scope: RouteScope, def: FakeHookDef | undefined) => ReturnType<Route['handle']>,
): Route {
  return {
    auth: 'required',
    handle(ctx) {
      const scope = adminScope(ctx);
      if (isError(scope)) return scope;
      const key = ctx.params.hookKey;
      const def = key === undefined ? undefined : opsState(ctx.state).hookDefs.find((d) => d.key === key);
      if (key !== undefined && !def)
        return bitbucketError(
          404,
          `Repository hook ${key} does not exist.`,
          'com.atlassian.bitbucket.hook.NoSuchHookException',
        );
      return handle(ctx, scope, def);
    },
  };
}

const listHooks = hookRoute((ctx, scope) => {
  const type = ctx.query.get('type');
  const defs = opsState(ctx.state).hookDefs.filter((d) => !type || d.type === type);
  return page(
    defs.map((d) => hookJson(ctx, scope, d)),
    ctx.query,
  );
});
const getHook = hookRoute((ctx, scope, def) => ({ status: 200, body: hookJson(ctx, scope, def!) }));
const toggle = (enabled: boolean) =>
  hookRoute((ctx, scope, def) => {
    const hooks = opsState(ctx.state).hooks;
    const id = `${scope.id}|${def!.key}`;
    hooks[id] = { ...hooks[id], enabled };
    return { status: 200, body: hookJson(ctx, scope, def!) };
  });
const getSettings = hookRoute((ctx, scope, def) => {
  const settings = opsState(ctx.state).hooks[`${scope.id}|${def!.key}`]?.settings;
  return settings ? { status: 200, body: settings } : { status: 204 };
});
const setSettings = hookRoute((ctx, scope, def) => {
  if (!ctx.body || typeof ctx.body !== 'object' || Array.isArray(ctx.body))
    return bitbucketError(
      400,
      'The settings must be a JSON object.',
      'com.atlassian.bitbucket.validation.ArgumentValidationException',
    );
  if (!def!.configFormKey)
    return bitbucketError(
      400,
      `${def!.name} has no settings.`,
      'com.atlassian.bitbucket.hook.repository.InvalidRepositoryHookSettingsException',
    );
  const hooks = opsState(ctx.state).hooks;
  const id = `${scope.id}|${def!.key}`;
  hooks[id] = { enabled: hooks[id]?.enabled ?? false, settings: ctx.body as Record<string, unknown> };
  return { status: 200, body: ctx.body };
});

function webhookJson(w: FakeWebhook) {
  const { target: _target, scopeType, ...rest } = w;
  return { ...rest, scopeType };
}

function webhookRoute(
  handle: (
    ctx: RouteContext,
    scope: RouteScope,
    hook: FakeWebhook | undefined,
  ) => ReturnType<Route['handle']>,
): Route {
  return {
    auth: 'required',
    handle(ctx) {
      const scope = adminScope(ctx);
      if (isError(scope)) return scope;
      const id = ctx.params.webhookId ?? ctx.query.get('webhookId') ?? undefined;
      const hook =
        id === undefined
          ? undefined
          : opsState(ctx.state).webhooks.find((w) => w.id === Number(id) && w.target === scope.id);
      if (id !== undefined && !hook)
        return bitbucketError(
          404,
          `No webhook with id ${id} exists in ${scope.id}.`,
          'com.atlassian.webhooks.NoSuchWebhookException',
        );
      return handle(ctx, scope, hook);
    },
  };
}

/** Bitbucket's checks on a webhook body: a name, an http(s) URL and at least one event. */
function invalidWebhook(body: Partial<FakeWebhook>) {
  const errors: { context: string; message: string }[] = [];
  if (!body.name) errors.push({ context: 'name', message: 'A name is required.' });
  if (!body.url || !/^https?:\/\//.test(body.url))
    errors.push({ context: 'url', message: 'A valid http(s) URL is required.' });
  if (!Array.isArray(body.events) || body.events.length === 0)
    errors.push({ context: 'events', message: 'At least one event is required.' });
  return errors.length ? { status: 400, body: { errors } } : undefined;
}

const listWebhooks = webhookRoute((ctx, scope) => {
  const event = ctx.query.get('event');
  const hooks = opsState(ctx.state).webhooks.filter(
    (w) => w.target === scope.id && (!event || w.events.includes(event)),
  );
  return page(hooks.map(webhookJson), ctx.query);
});
const getWebhook = webhookRoute((_ctx, _scope, hook) => ({ status: 200, body: webhookJson(hook!) }));
const createWebhook = webhookRoute((ctx, scope) => {
  const body = (ctx.body ?? {}) as Partial<FakeWebhook>;
  const invalid = invalidWebhook(body);
  if (invalid) return invalid;
  const ops = opsState(ctx.state);
  const now = 1_700_000_000_000 + ops.nextId * 1000;
  const hook: FakeWebhook = {
    id: ops.nextId++,
    scopeType: scope.type,
    target: scope.id,
    name: body.name!,
    url: body.url!,
    events: body.events!,
    active: body.active ?? true,
    sslVerificationRequired: body.sslVerificationRequired ?? true,
    configuration: body.configuration ?? {},
    ...(body.credentials && { credentials: body.credentials }),
    createdDate: now,
    updatedDate: now,
  };
  ops.webhooks.push(hook);
  return { status: 200, body: webhookJson(hook) };
});
// A PUT replaces the webhook (RestWebhook whole): what the body leaves out is erased or back to its default.
const updateWebhook = webhookRoute((ctx, _scope, hook) => {
  const body = (ctx.body ?? {}) as Partial<FakeWebhook>;
  const invalid = invalidWebhook(body);
  if (invalid) return invalid;
  Object.assign(hook!, {
    name: body.name,
    url: body.url,
    events: body.events,
    active: body.active ?? true,
    sslVerificationRequired: body.sslVerificationRequired ?? true,
    configuration: body.configuration ?? {},
    credentials: body.credentials,
    updatedDate: hook!.updatedDate + 1000,
  });
  return { status: 200, body: webhookJson(hook!) };
});
const deleteWebhook = webhookRoute((ctx, _scope, hook) => {
  const ops = opsState(ctx.state);
  ops.webhooks = ops.webhooks.filter((w) => w !== hook);
  return { status: 204 };
});
const testWebhook = webhookRoute((ctx) => {
  const url = ctx.query.get('url') ?? '';
  const reachable = !url.includes('unreachable');
  return {
    status: 200,
    body: {
      request: { url, method: 'POST' },
      ...(reachable && { response: { statusCode: 200, body: '' } }),
      result: reachable
        ? { outcome: 'SUCCESS', description: '200' }
        : { outcome: 'ERROR', description: `${new URL(url).host}: Name or service not known` },
    },
  };
});

/** Hooks and webhooks, repository (`_1`) and project operations alike. */
export const hookWebhookRoutes: RouteTable = {
  getRepositoryHooks_1: listHooks,
  getRepositoryHooks: listHooks,
  getRepositoryHook_1: getHook,
  getRepositoryHook: getHook,
  enableHook_1: toggle(true),
  enableHook: toggle(true),
  disableHook_1: toggle(false),
  disableHook: toggle(false),
  getSettings_1: getSettings,
  getSettings: getSettings,
  setSettings_1: setSettings,
  setSettings: setSettings,
  findWebhooks_1: listWebhooks,
  findWebhooks: listWebhooks,
  getWebhook_1: getWebhook,
  getWebhook: getWebhook,
  createWebhook_1: createWebhook,
  createWebhook: createWebhook,
  updateWebhook_1: updateWebhook,
  updateWebhook: updateWebhook,
  deleteWebhook_1: deleteWebhook,
  deleteWebhook: deleteWebhook,
  testWebhook_1: testWebhook,
  testWebhook: testWebhook,
};
