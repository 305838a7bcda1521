// A flow is replaced, never edited in place: Keycloak adds each execution DISABLED and takes its requirement in a
// second call, so a bound flow edited step by step would refuse every login, then let a password alone through.
// The new version is built complete under the next alias (its sub-flows and configs too), while nothing uses it;
// then the realm's bindings that name the old version move to it in one realm update, the identity providers and
// client overrides that use the old one follow, the old one is deleted (its sub-flows and configs with it) and the
// new one takes the declared aliases (Keycloak binds flows by id, so a rename keeps every binding). After a crash
// at any point the realm binds either the old or the new version, each complete; `settle` finishes or removes what
// a crash left (a next version that is bound, or whose old version is gone, is finished; any other is deleted).
import { RealmforgeError } from '../../../core/errors.ts';
import type { AdminClient } from '../admin-client.ts';
import type { Item } from './collection.ts';
import { executionsPath, type LiveExecution, type Step } from './flow-steps.ts';

const enc = encodeURIComponent;
const suffix = '-realmforge-next';

/** The alias a flow, sub-flow or config has while its next version is built. */
export const nextAlias = (alias: string) => `${alias}${suffix}`;
const declaredAlias = (alias: string) => (alias.endsWith(suffix) ? alias.slice(0, -suffix.length) : alias);

/** The realm fields that bind a flow by alias. */
export const realmBindings = [
  'browserFlow',
  'registrationFlow',
  'directGrantFlow',
  'resetCredentialsFlow',
  'clientAuthenticationFlow',
  'dockerAuthenticationFlow',
] as const;

type Ctx = { admin: AdminClient; ns: string; realm: string };
const flowsPath = (c: Ctx) => `/${enc(c.realm)}/authentication/flows`;

/** Builds the next version of top-level flow `flow` (Keycloak's form, declared alias) with `steps`, complete. */
export async function buildNext(c: Ctx, flow: Item, steps: readonly Step[]): Promise<Item> {
  const alias = nextAlias(String(flow.alias));
  const created = await c.admin.call(c.ns, 'POST', flowsPath(c), { ...flow, alias });
  if (created.status >= 300) fail(String(flow.alias), created.status, `creating its next version "${alias}"`);
  for (const step of steps) {
    const path = executionsPath(c.realm, nextAlias(step.parent));
    const res = step.subFlow
      ? await c.admin.call(c.ns, 'POST', `${path}/flow`, {
          alias: nextAlias(step.subFlow.alias),
          type: step.subFlow.providerId,
          description: step.subFlow.description,
          ...(step.subFlow.providerId === 'form-flow' ? { provider: 'registration-page-form' } : {}),
        })
      : await c.admin.call(c.ns, 'POST', `${path}/execution`, { provider: step.authenticator });
    if (res.status >= 300)
      fail(
        step.parent,
        res.status,
        step.subFlow
          ? `adding sub-flow "${step.subFlow.alias}" (its alias is taken by another flow of the realm: rename it)`
          : `adding authenticator "${step.authenticator}"`,
      );
  }
  const made = (await c.admin.call<LiveExecution[]>(c.ns, 'GET', executionsPath(c.realm, alias))).body ?? [];
  for (const [i, step] of steps.entries()) {
    const execution = made[i];
    if (!execution?.id) continue;
    if (execution.requirement !== step.requirement)
      await c.admin.call(c.ns, 'PUT', executionsPath(c.realm, nextAlias(step.parent)), {
        ...execution,
        requirement: step.requirement,
      });
    if (step.config)
      await c.admin.call(
        c.ns,
        'POST',
        `/${enc(c.realm)}/authentication/executions/${enc(execution.id)}/config`,
        {
          alias: nextAlias(step.config.alias),
          config: step.config.config,
        },
      );
  }
  const live = (await c.admin.call<Item[]>(c.ns, 'GET', flowsPath(c))).body ?? [];
  return live.find((f) => f.alias === alias) ?? fail(String(flow.alias), 404, `reading back "${alias}"`);
}

function fail(flow: string, status: number, doing: string): never {
  throw new RealmforgeError(
    status === 409 ? 'conflict' : 'validation',
    `spec.authenticationFlows[${flow}]: Keycloak answered HTTP ${status} ${doing}`,
  );
}

/** Moves what uses `old` to `next`: the realm's bindings in one update, then identity providers and client
 * overrides; then deletes `old`. */
export async function switchTo(c: Ctx, old: Item, next: Item): Promise<string[]> {
  const writes: string[] = [];
  const realm = (await c.admin.call<Item>(c.ns, 'GET', `/${enc(c.realm)}`)).body ?? {};
  const bound = realmBindings.filter((b) => realm[b] === old.alias);
  if (bound.length) {
    // The realm as just read, so the update resets nothing Keycloak rebuilds from an update (device-grant settings).
    const bindings = Object.fromEntries(bound.map((b) => [b, next.alias]));
    await c.admin.call(c.ns, 'PUT', `/${enc(c.realm)}`, { ...realm, ...bindings });
    writes.push(`bind ${bound.join(', ')} to the next version of ${String(old.alias)}`);
  }
  const idps = (await c.admin.call<Item[]>(c.ns, 'GET', `/${enc(c.realm)}/identity-provider/instances`)).body;
  for (const idp of idps ?? []) {
    const fields = ['firstBrokerLoginFlowAlias', 'postBrokerLoginFlowAlias'].filter(
      (f) => idp[f] === old.alias,
    );
    if (!fields.length) continue;
    const path = `/${enc(c.realm)}/identity-provider/instances/${enc(String(idp.alias))}`;
    await c.admin.call(c.ns, 'PUT', path, {
      ...idp,
      ...Object.fromEntries(fields.map((f) => [f, next.alias])),
    });
    writes.push(`move identity provider ${String(idp.alias)} to the next version of ${String(old.alias)}`);
  }
  const clients = (await c.admin.call<Item[]>(c.ns, 'GET', `/${enc(c.realm)}/clients`)).body ?? [];
  for (const client of clients) {
    const overrides = (client.authenticationFlowBindingOverrides ?? {}) as Record<string, string>;
    if (!Object.values(overrides).includes(String(old.id))) continue;
    const moved = Object.fromEntries(
      Object.entries(overrides).map(([k, v]) => [k, v === old.id ? next.id : v]),
    );
    const path = `/${enc(c.realm)}/clients/${enc(String(client.id))}`;
    await c.admin.call(c.ns, 'PUT', path, { ...client, authenticationFlowBindingOverrides: moved });
    writes.push(`move client ${String(client.clientId)} to the next version of ${String(old.alias)}`);
  }
  await remove(c, old);
  return [...writes, `delete the old version of authentication flow ${String(old.alias)}`];
}

async function remove(c: Ctx, flow: Item) {
  const res = await c.admin.call(c.ns, 'DELETE', `${flowsPath(c)}/${enc(String(flow.id))}`);
  if (res.status >= 300 && res.status !== 404)
    throw new RealmforgeError(
      'conflict',
      `authentication flow ${String(flow.alias)} of realm ${c.realm} could not be deleted (HTTP ${res.status}): something realmforge does not manage still uses it; the next reconcile tries again`,
    );
}

/** Gives the next version (its sub-flows and configs first) its declared aliases; each rename keeps its id. */
export async function rename(c: Ctx, next: Item): Promise<string[]> {
  const steps =
    (await c.admin.call<LiveExecution[]>(c.ns, 'GET', executionsPath(c.realm, String(next.alias)))).body ??
    [];
  const put = async (path: string, body: Item, what: string) => {
    const res = await c.admin.call(c.ns, 'PUT', path, body);
    if (res.status >= 300)
      fail(
        declaredAlias(String(next.alias)),
        res.status,
        `renaming ${what} to "${String(body.alias)}" (another flow or config of the realm has that name: rename it)`,
      );
  };
  for (const e of steps) {
    if (e.authenticationFlow && e.flowId && e.displayName?.endsWith(suffix))
      await put(
        `${flowsPath(c)}/${enc(e.flowId)}`,
        {
          id: e.flowId,
          alias: declaredAlias(e.displayName),
          description: e.description ?? '',
          providerId: e.providerId && e.providerId !== 'basic-flow' ? 'form-flow' : 'basic-flow',
          topLevel: false,
          builtIn: false,
        },
        'a sub-flow',
      );
    if (e.authenticationConfig) {
      const path = `/${enc(c.realm)}/authentication/config/${enc(e.authenticationConfig)}`;
      const config = (await c.admin.call<Item>(c.ns, 'GET', path)).body;
      if (config && String(config.alias).endsWith(suffix))
        await put(path, { ...config, alias: declaredAlias(String(config.alias)) }, 'a config');
    }
  }
  const alias = declaredAlias(String(next.alias));
  await put(`${flowsPath(c)}/${enc(String(next.id))}`, { ...next, alias }, 'the flow');
  return [`rename the next version of authentication flow ${alias}`];
}

/** Finishes or removes the next version of `alias` a crash left (`live`: the realm's top-level flows). */
export async function settle(c: Ctx, alias: string, live: readonly Item[], realm: Item): Promise<string[]> {
  const next = live.find((f) => f.alias === nextAlias(alias));
  if (!next) return [];
  const old = live.find((f) => f.alias === alias);
  if (old && !realmBindings.some((b) => realm[b] === next.alias)) {
    await remove(c, next);
    return [`delete the unfinished next version of authentication flow ${alias}`];
  }
  return [...(old ? await switchTo(c, old, next) : []), ...(await rename(c, next))];
}
