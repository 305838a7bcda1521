// An admin client that reads through and records every write instead of sending it: the reconcilers' own diff,
// run unchanged, for observe-only resources and `realmforge plan`. A write is answered as Keycloak answers a
// success, and each recorded update names its fields against what was last read or planned at that path (a list
// answer counts for its items' paths), secrets as "changed" without values. A step that needs what an earlier recorded
// write would have made (a new group's id) fails: the plan is then partial, and says so.
import { canonicalJson } from '../runtime/desired-state.ts';
import type { AdminClient, AdminResponse } from './admin-client.ts';

type Obj = Record<string, unknown>;

/** One field of a planned update: set (absent before), changed, or removed; no values for secrets. */
export type FieldChange = {
  field: string;
  change: 'set' | 'changed' | 'removed';
  from?: unknown;
  to?: unknown;
};

/** A write the reconcile would have sent. */
export type PlannedWrite = {
  method: 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** What is written, by name where known: `apps/roles/viewer`, `apps/groups "team"`. */
  target: string;
  /** For an update of something read before: its fields that change. */
  fields?: FieldChange[];
};

const secretField = /secret|password|credential/i;
/** The operator's own bookkeeping attributes: ownership marks, not settings. */
export const bookkeeping = (field: string) => /(^|\.)realmforge\.dev\//.test(field);

const isObj = (v: unknown): v is Obj => Boolean(v) && typeof v === 'object' && !Array.isArray(v);
const empty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && !v.length);

/** The fields of `body` that differ from `live`: top level, and one level into maps (`attributes.x`). */
export function changedFields(live: Obj, body: Obj): FieldChange[] {
  const out: FieldChange[] = [];
  const visit = (field: string, from: unknown, to: unknown, depth: number) => {
    if (depth === 0 && isObj(to) && (isObj(from) || from === undefined)) {
      for (const key of Object.keys(to).sort())
        visit(`${field}.${key}`, (from as Obj | undefined)?.[key], to[key], 1);
      return;
    }
    if (canonicalJson(from ?? null) === canonicalJson(to ?? null) || (empty(from) && empty(to))) return;
    const change = empty(from) ? 'set' : empty(to) ? 'removed' : 'changed';
    out.push(secretField.test(field) ? { field, change } : { field, change, from, to });
  };
  for (const key of Object.keys(body).sort()) if (key !== 'id') visit(key, live[key], body[key], 0);
  return out;
}

const named = (o: Obj | undefined) =>
  [o?.name, o?.alias, o?.clientId, o?.realm].find((v): v is string => typeof v === 'string');

/** The path without its leading slash, an id segment replaced by the item's name, a new item's name after it. */
function targetOf(path: string, live: Obj | undefined, body: unknown): string {
  const segments = (path.split('?')[0] ?? '')
    .split('/')
    .filter(Boolean)
    .map((s) => (s === 'roles-by-id' ? 'roles' : decodeURIComponent(s)));
  const name = named(live);
  if (name && segments.length > 1) segments[segments.length - 1] = name;
  const made = !live && isObj(body) ? named(body) : undefined;
  return `${segments.join('/') || '(realms)'}${made ? ` "${made}"` : ''}`;
}

const verbs = { POST: 'create', PUT: 'update', DELETE: 'delete' } as const;
const shown = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : canonicalJson(v ?? null));

/** One line per planned write, as status and `realmforge plan` print them; the operator's own marks left out. */
export function planLine(write: PlannedWrite): string {
  const head = `${verbs[write.method]} ${write.target}`;
  if (!write.fields) return head;
  const settings = write.fields.filter((f) => !bookkeeping(f.field));
  const parts = settings.map((f) =>
    'from' in f || 'to' in f
      ? `${f.field}: ${f.change === 'set' ? shown(f.to) : f.change === 'removed' ? 'removed' : `${shown(f.from)} -> ${shown(f.to)}`}`
      : `${f.field}: ${f.change}`,
  );
  return parts.length ? `${head}: ${parts.join(', ')}` : head;
}

/** Whether a planned write changes only the operator's own marks (adoption), no setting. */
export const onlyBookkeeping = (write: PlannedWrite) =>
  write.method === 'PUT' && Boolean(write.fields) && (write.fields ?? []).every((f) => bookkeeping(f.field));

/** `admin` with writes recorded, not sent; `planned()` lists them in order. */
export function observingAdmin(admin: AdminClient): AdminClient & { planned(): PlannedWrite[] } {
  const seen = new Map<string, Obj>();
  // Items are also known by id alone: a role listed at /roles is updated at /roles-by-id/<id>.
  const byId = new Map<string, Obj>();
  const planned: PlannedWrite[] = [];
  const remember = (path: string, body: unknown) => {
    const base = path.split('?')[0] ?? path;
    if (isObj(body)) seen.set(base, body);
    if (!Array.isArray(body)) return;
    for (const item of body.filter(isObj)) {
      if (typeof item.id === 'string') byId.set(item.id, item);
      for (const key of [item.id, item.alias, item.name, item.clientId])
        if (typeof key === 'string') seen.set(`${base}/${encodeURIComponent(key)}`, item);
    }
  };
  return {
    baseUrl: admin.baseUrl,
    async call<T>(...args: Parameters<AdminClient['call']>): Promise<AdminResponse<T>> {
      const [, method, path, body] = args;
      if (method === 'GET') {
        const res = await admin.call<T>(...args);
        remember(path, res.body);
        return res;
      }
      const live = seen.get(path) ?? byId.get(decodeURIComponent(path.split('/').pop() ?? ''));
      const write: PlannedWrite = { method, path, target: targetOf(path, live, body) };
      if (method === 'PUT' && live && isObj(body)) {
        write.fields = changedFields(live, body);
        // A later update of the same object (the realm's ledgers recorded after its sections) names only what
        // it changes beyond this one.
        seen.set(path, { ...live, ...body });
      }
      planned.push(write);
      return { status: method === 'POST' ? 201 : 204, body: undefined as T };
    },
    planned: () => [...planned],
  };
}
